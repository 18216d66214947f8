"""Torch in, torch out; posenc.torch's autograd Function and Rotary module (issue 28.10-11).

References are independent of posenc: reference.rope (float64/longdouble numpy), and Hugging
Face's llama3 inv_freq and YaRN magnitude re-derived here from transformers'
modeling_rope_utils.py formulas (_compute_llama3_parameters, get_mscale)."""
import json
import math
import pathlib
import warnings

import numpy as np
import pytest

import posenc
import reference as ref

torch = pytest.importorskip("torch", reason="python3-torch is not installed")
import posenc.torch as pt  # noqa: E402  (after the skip: it imports torch)

CONFIGS = pathlib.Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "configs"


def bits(t):
    return t.view(torch.int16).numpy().view(np.uint16) if t.dtype == torch.bfloat16 else t.numpy()


# --- torch in, torch out
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_torch_in_torch_out_numpy_in_numpy_out(rng, dtype):
    f = posenc.freqs_default(64, 10000.0)
    xn = rng.uniform(-1, 1, (5, 2, 64)).astype(np.float32)
    x = torch.from_numpy(xn).to(dtype)
    y = posenc.rope_apply(x, f, start=3)
    assert isinstance(y, torch.Tensor) and y.dtype == dtype and y.shape == x.shape
    yn = posenc.rope_apply(bits(x), f, start=3)
    assert isinstance(yn, np.ndarray) and np.array_equal(bits(y), yn)
    q, k = posenc.rope_apply_qk(x, x[:, :1].contiguous(), f, start=3)
    assert isinstance(q, torch.Tensor) and isinstance(k, torch.Tensor)
    c, s = posenc.rope_cos_sin(f, positions=torch.arange(7))
    assert isinstance(c, torch.Tensor) and c.shape == (7, 32)
    cn, _ = posenc.rope_cos_sin(f, positions=np.arange(7))
    assert isinstance(cn, np.ndarray) and np.array_equal(c.numpy(), cn)
    # out= a tensor: the tensor itself, written in place
    out = torch.empty_like(x)
    assert posenc.rope_apply(x, f, start=3, out=out) is out and torch.equal(out, y)


def test_int32_positions_equal_int64(rng):
    f = posenc.freqs_default(32, 10000.0)
    x = rng.uniform(-1, 1, (6, 32)).astype(np.float32)
    p64 = np.array([0, -7, 2**31 - 1, -(2**31), 5, 5])
    want = posenc.rope_apply(x, f, positions=p64)
    assert np.array_equal(posenc.rope_apply(x, f, positions=p64.astype(np.int32)), want)
    got = posenc.rope_apply(torch.from_numpy(x), f, positions=torch.from_numpy(p64.astype(np.int32)))
    assert np.array_equal(got.numpy(), want)


# --- autograd
def yarn_freqs(d):
    return posenc.freqs_from_scaling("yarn", d, base=10000.0, factor=4.0, original_max_position=2048)


@pytest.mark.parametrize("layout", ["half", "interleaved"])
def test_gradient_is_the_backward_rotation(rng, layout):
    """dL/dx for L = sum(w * rotate(x)) is R(p)^T w: angle -t, magnitude A (float64 reference)."""
    f = yarn_freqs(16)
    assert f.attention_factor > 1.0  # the magnitude must show in the gradient
    pos = np.array([0, 3, 1000, 2**31 - 1, -40])
    x = torch.from_numpy(rng.uniform(-1, 1, (5, 2, 16)).astype(np.float32)).requires_grad_()
    w = rng.uniform(-1, 1, (5, 2, 16))
    y = pt.rotate(x, f, layout=layout, positions=torch.from_numpy(pos))
    assert y.requires_grad
    (y * torch.from_numpy(w).float()).sum().backward()
    omega = np.asarray(f.inv_freq, dtype=np.longdouble) + np.asarray(f.inv_freq_lo, dtype=np.longdouble)
    want = ref.rope(w.astype(np.float32), omega, pos, layout, f.attention_factor, direction="backward")
    tol = ref.rope_tolerance(w.astype(np.float32), want, omega, layout, f.attention_factor)
    assert np.all(np.abs(x.grad.numpy() - want) <= tol)
    # the forward itself, against the same reference
    fwd = ref.rope(x.detach().numpy(), omega, pos, layout, f.attention_factor)
    assert np.all(np.abs(y.detach().numpy() - fwd) <= ref.rope_tolerance(x.detach().numpy(), fwd, omega, layout,
                                                                          f.attention_factor))


def test_gradcheck_hf_layout_and_unit_magnitude_backward_is_inverse(rng):
    f = yarn_freqs(8)
    x = torch.from_numpy(rng.uniform(-1, 1, (2, 3, 4, 8)).astype(np.float32)).requires_grad_()
    pos = torch.tensor([[0, 1, 2, 3], [100, 101, 5000, 7]])  # per batch element

    def fn(t):
        return pt.rotate(t, f, positions=pos, token_axis=2)

    with warnings.catch_warnings():  # float32 input: gradcheck warns, the tolerances allow for it
        warnings.simplefilter("ignore")
        assert torch.autograd.gradcheck(fn, (x,), eps=1e-2, atol=2e-3, rtol=2e-3)
    # A = 1: the gradient is the inverse rotation
    g = posenc.freqs_default(8, 10000.0)
    x2 = x.detach().clone().requires_grad_()
    up = torch.from_numpy(rng.uniform(-1, 1, (2, 3, 4, 8)).astype(np.float32))
    pt.rotate(x2, g, positions=pos, token_axis=2).backward(up)
    inv = posenc.rope_apply(up, g, positions=pos, token_axis=2, direction="inverse")
    assert torch.equal(x2.grad, inv)


def test_gradients_through_positions_are_refused(rng):
    f = posenc.freqs_default(8, 10000.0)
    x = torch.zeros(3, 8, requires_grad=True)
    with pytest.raises(ValueError, match="gradients through positions are not supported"):
        pt.rotate(x, f, positions=torch.arange(3.0, requires_grad=True))
    with pytest.raises(TypeError, match="positions must be integers"):
        pt.rotate(x, f, positions=torch.arange(3.0))
    with pytest.raises(TypeError, match=r"float64 is not rotated by posenc.*x.float\(\)"):
        pt.rotate(torch.zeros(3, 8, dtype=torch.float64), f)


# --- Rotary from a config
def hf_llama3_inv_freq(cfg, dim):
    """transformers' _compute_llama3_parameters, restated in float64."""
    rs = cfg["rope_scaling"]
    base, factor = cfg["rope_theta"], rs["factor"]
    lo, hi, old = rs["low_freq_factor"], rs["high_freq_factor"], rs["original_max_position_embeddings"]
    inv = 1.0 / base ** (np.arange(0, dim, 2, dtype=np.float64) / dim)
    wavelen = 2 * math.pi / inv
    out = np.where(wavelen > old / lo, inv / factor, inv)
    smooth = (old / wavelen - lo) / (hi - lo)
    smoothed = (1 - smooth) * out / factor + smooth * out
    medium = ~(wavelen < old / hi) & ~(wavelen > old / lo)
    return np.where(medium, smoothed, out)


def test_rotary_from_config_cos_sin_match_hf_llama3():
    path = CONFIGS / "llama-3.1-8b.json"
    cfg = json.loads(path.read_text())
    rot = pt.Rotary.from_config(str(path), layer=0)
    assert rot.layout == "half" and rot.rotary_dim == 128 and rot.attention_factor == 1.0
    pos = torch.tensor([[0, 1, 2, 4095], [8191, 65536, 131071, 7]])
    cos, sin = rot.cos_sin(pos)
    assert cos.shape == (2, 4, 128) and cos.dtype == torch.float32
    inv = hf_llama3_inv_freq(cfg, 128)
    ang = np.asarray(pos, dtype=np.longdouble)[..., None] * inv.astype(np.longdouble)
    want_c = np.cos(np.fmod(ang, 2 * np.pi)).astype(np.float64)
    want_c = np.concatenate([want_c, want_c], -1)
    # posenc's frequencies are the exact llama3 values, HF's float64 restatement within 1e-15
    # relative: at p < 2^17 the angles differ by < 1e-9, so the float32 entries agree to 1 ulp
    assert np.max(np.abs(cos.numpy() - want_c)) <= 2 ** -24 + 1e-9
    # the same from a dict
    c2, _ = pt.Rotary.from_config(cfg).cos_sin(pos)
    assert torch.equal(c2, cos)


def test_rotary_yarn_magnitude_and_forward_equals_rotate(rng):
    path = CONFIGS / "qwen2.5-7b-instruct-yarn.json"
    cfg = json.loads(path.read_text())
    rot = pt.Rotary.from_config(path, layer=0)
    a = 0.1 * math.log(cfg["rope_scaling"]["factor"]) + 1.0  # HF get_mscale(factor)
    assert abs(rot.attention_factor - a) < 1e-15
    cos, sin = rot.cos_sin(torch.arange(50))
    assert np.allclose(cos.double() ** 2 + sin.double() ** 2, a * a, rtol=3e-7)
    q = torch.from_numpy(rng.uniform(-1, 1, (1, 4, 6, 128)).astype(np.float32)).requires_grad_()
    k = torch.from_numpy(rng.uniform(-1, 1, (1, 2, 6, 128)).astype(np.float32)).requires_grad_()
    qr, kr = rot(q, k, start=10)
    assert torch.equal(qr, posenc.rope_apply(q.detach(), rot.freqs, start=10, token_axis=2))
    (qr.sum() + kr.sum()).backward()
    assert q.grad is not None and k.grad is not None
    assert torch.equal(q.grad, posenc.rope_apply(torch.ones_like(q), rot.freqs, start=10, token_axis=2,
                                                 direction="backward"))


def test_rotary_refuses_what_it_cannot_build():
    with pytest.raises(ValueError, match="does not rotate"):
        plan = posenc.load_plan(str(CONFIGS / "llama-4-scout-17b-16e.json"))
        nope = next(i for i in range(plan.num_layers) if not plan.layer(i)["rope"])
        pt.Rotary.from_config(str(CONFIGS / "llama-4-scout-17b-16e.json"), layer=nope)
    with pytest.raises(NotImplementedError, match="M-RoPE"):
        pt.Rotary.from_config(str(CONFIGS / "qwen2.5-vl-7b-instruct.json"))
    rot = pt.Rotary.from_config(str(CONFIGS / "llama-3.1-8b.json"))
    with pytest.raises(ValueError, match="head_dim 64, the layer 128"):
        rot(torch.zeros(1, 1, 2, 64), torch.zeros(1, 1, 2, 64))
