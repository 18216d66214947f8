"""posenc against the two PyTorch RoPE implementations checkpoints were trained with:
Hugging Face's rotate_half (half-split pairs) and Meta Llama's complex multiply
(interleaved pairs), written here as those code bases write them. Needs Debian's
python3-torch; skipped (with the reason) when it is not installed."""
import numpy as np
import pytest

import posenc
import reference as ref

torch = pytest.importorskip("torch", reason="python3-torch is not installed (apt-get install python3-torch)")


# --- Hugging Face (transformers' LlamaRotaryEmbedding + apply_rotary_pos_emb)
def hf_inv_freq(dim, base, dtype):
    return 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).to(dtype) / dim))


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def hf_rope(x, positions, dim, base, dtype):
    """x: (tokens, heads, dim) -> rotated, computed in dtype."""
    inv_freq = hf_inv_freq(dim, base, dtype)
    freqs = torch.outer(positions.to(dtype), inv_freq)
    emb = torch.cat((freqs, freqs), dim=-1)
    cos, sin = emb.cos()[:, None, :], emb.sin()[:, None, :]
    x = x.to(dtype)
    return x * cos + rotate_half(x) * sin


# --- Meta Llama (model.py: precompute_freqs_cis + apply_rotary_emb)
def meta_freqs_cis(dim, positions, theta, dtype):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].to(dtype) / dim))
    freqs = torch.outer(positions.to(dtype), freqs)
    return torch.polar(torch.ones_like(freqs), freqs)


def meta_rope(x, positions, dim, theta, dtype):
    freqs_cis = meta_freqs_cis(dim, positions, theta, dtype)[:, None, :]
    x_ = torch.view_as_complex(x.to(dtype).reshape(*x.shape[:-1], -1, 2))
    return torch.view_as_real(x_ * freqs_cis).flatten(2)


DIM, BASE = 64, 10000.0


def test_frequencies_agree():
    f = posenc.freqs_default(DIM, BASE)
    # float64: both torch formulas round twice (pow, then 1/x): within 2 ulps
    np.testing.assert_allclose(hf_inv_freq(DIM, BASE, torch.float64).numpy(), f.inv_freq, rtol=4.5e-16, atol=0)
    meta = 1.0 / (BASE ** (torch.arange(0, DIM, 2).to(torch.float64) / DIM))
    np.testing.assert_allclose(meta.numpy(), f.inv_freq, rtol=4.5e-16, atol=0)
    # float32, as the checkpoints' code runs by default: within 1 float32 ulp
    hf32 = hf_inv_freq(DIM, BASE, torch.float32).numpy()
    np.testing.assert_allclose(hf32, f.inv_freq.astype(np.float32), rtol=2.0**-23, atol=0)


@pytest.mark.parametrize("impl,layout", [("hf", "half"), ("meta", "interleaved")])
def test_rotation_agrees_with_pytorch(rng, impl, layout):
    x = rng.uniform(-1, 1, (32, 4, DIM)).astype(np.float32)
    pos = np.arange(100, 132)
    f = posenc.freqs_default(DIM, BASE)
    torch_fn = hf_rope if impl == "hf" else meta_rope
    want = torch_fn(torch.from_numpy(x), torch.from_numpy(pos), DIM, BASE, torch.float64).numpy()
    got = posenc.rope_apply(x, f, layout=layout, positions=pos)
    tol = ref.rope_tolerance(x, want, f.inv_freq, layout)
    assert np.all(np.abs(got - want) <= tol)
    if posenc.kernels_name() == "scalar":  # PE_ISA=scalar: the exact rotation rounded once
        assert np.array_equal(got, want.astype(np.float32))
    # the other layout is a different function: no accidental agreement
    other = posenc.rope_apply(x, f, layout="interleaved" if layout == "half" else "half", positions=pos)
    assert np.abs(other - want).max() > 0.1


def test_hf_and_meta_differ_by_the_layout_permutation(rng):
    x = rng.uniform(-1, 1, (8, 2, DIM))
    pos = torch.arange(8)
    perm = posenc.rope_layout_permutation(DIM)
    xh = np.empty_like(x)
    xh[..., perm] = x
    meta = meta_rope(torch.from_numpy(x), pos, DIM, BASE, torch.float64).numpy()
    hf = hf_rope(torch.from_numpy(xh), pos, DIM, BASE, torch.float64).numpy()
    np.testing.assert_allclose(hf[..., perm], meta, rtol=0, atol=1e-15)


def test_converted_weights_give_meta_scores_under_hf(rng):
    """Meta weights under Meta's rotation and posenc-converted weights under Hugging
    Face's rotation give the same attention logits (float64 PyTorch on both sides)."""
    H, KV, T, HID = 4, 2, 10, 48
    wq = rng.standard_normal((H * DIM, HID))
    wk = rng.standard_normal((KV * DIM, HID))
    wq_hf = posenc.qk_permute_rows(wq, DIM, to="half")
    wk_hf = posenc.qk_permute_rows(wk, DIM, to="half")
    x = torch.from_numpy(rng.standard_normal((T, HID)))
    pos = torch.tensor([0, 1, 2, 3, 50, 51, 1000, 1001, 4096, 9999])

    def logits(wq_, wk_, rope):
        q = (x @ torch.from_numpy(wq_).T).reshape(T, H, DIM)
        k = (x @ torch.from_numpy(wk_).T).reshape(T, KV, DIM)
        q, k = rope(q, pos, DIM, BASE, torch.float64), rope(k, pos, DIM, BASE, torch.float64)
        k = k.repeat_interleave(H // KV, dim=1)
        return torch.einsum("thd,shd->hts", q, k).numpy()

    meta = logits(wq, wk, meta_rope)
    hf = logits(wq_hf, wk_hf, hf_rope)
    np.testing.assert_allclose(hf, meta, rtol=1e-12, atol=1e-10)
    wrong = logits(wq, wk, hf_rope)  # the classic converter bug: no permutation
    assert np.abs(wrong - meta).max() > 1.0


def test_float32_pytorch_loses_large_positions(rng):
    """HF's default float32 path forms p * w in float32: ~0.03 rad off at p = 10^6.
    posenc's float32 output stays within its 2^-23 bound of the exact rotation."""
    x = rng.uniform(-1, 1, (4, 1, DIM)).astype(np.float32)
    pos = np.array([10**6, 10**6 + 1, 2 * 10**6, 3 * 10**6 + 7])
    f = posenc.freqs_default(DIM, BASE)
    exact = ref.rope(x, f.inv_freq.astype(np.longdouble) + f.inv_freq_lo, pos, "half")
    hf32 = hf_rope(torch.from_numpy(x), torch.from_numpy(pos), DIM, BASE, torch.float32).numpy()
    ours = posenc.rope_apply(x, f, positions=pos)
    assert np.abs(hf32 - exact).max() > 1e-3
    assert np.all(np.abs(ours - exact) <= ref.rope_tolerance(x, exact, f.inv_freq, "half"))


# --- torch tensors as arguments (DLPack, python/py_dlpack.c): no copies
def bits(t):
    """A torch tensor's raw bits as a numpy array (bfloat16 as uint16)."""
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(np.uint16)
    return t.numpy()


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_torch_inputs_give_the_numpy_results_bit_for_bit(rng, dtype):
    f = posenc.freqs_default(DIM, BASE)
    x = torch.from_numpy(rng.uniform(-1, 1, (9, 3, DIM)).astype(np.float32)).to(dtype)
    pos = np.array([0, 1, 7, 100, 4095, 2**20, 2**31 - 1, -5, 12])
    want = posenc.rope_apply(bits(x), f, positions=pos, layout="interleaved")
    got = posenc.rope_apply(x, f, positions=torch.from_numpy(pos), layout="interleaved")
    # torch in, torch out: a tensor of the input's dtype over the same bits
    assert isinstance(got, torch.Tensor) and got.dtype == dtype
    assert bits(got).dtype == want.dtype and np.array_equal(bits(got), want)
    # q and k together, keys shifted and re-based: the same bits either way
    k = torch.from_numpy(rng.uniform(-1, 1, (9, 1, DIM)).astype(np.float32)).to(dtype)
    qn, kn = posenc.rope_apply_qk(bits(x), bits(k), f, positions=pos)
    qt, kt = posenc.rope_apply_qk(x, k, f, positions=pos)
    assert np.array_equal(bits(qt), qn) and np.array_equal(bits(kt), kn)
    d = rng.integers(-1000, 1000, 9)
    assert np.array_equal(bits(posenc.rope_shift(k, f, torch.from_numpy(d))), posenc.rope_shift(bits(k), f, d))
    g = posenc.freqs_from_scaling("linear", DIM, base=BASE, factor=4.0)
    assert np.array_equal(bits(posenc.rope_rebase(k, f, g, positions=pos)),
                          posenc.rope_rebase(bits(k), f, g, positions=pos))


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_torch_in_place_and_out_write_the_tensor_itself(rng, dtype):
    f = posenc.freqs_default(DIM, BASE)
    x = torch.from_numpy(rng.uniform(-1, 1, (6, 2, DIM)).astype(np.float32)).to(dtype)
    want = posenc.rope_apply(bits(x), f, start=40)
    ptr = x.data_ptr()
    r = posenc.rope_apply(x, f, start=40, out=x)
    assert r is x and x.data_ptr() == ptr and np.array_equal(bits(x), want)
    # a preallocated torch output (a slice of a bigger cache), written where it lies
    cache = torch.zeros((10, 2, DIM), dtype=dtype)
    y = torch.from_numpy(rng.uniform(-1, 1, (6, 2, DIM)).astype(np.float32)).to(dtype)
    posenc.rope_apply(y, f, start=3, out=cache[2:8])
    assert np.array_equal(bits(cache[2:8]), posenc.rope_apply(bits(y), f, start=3))
    assert not bits(cache[:2]).any() and not bits(cache[8:]).any()
    # shifting cached keys in place: the torch tensor itself changes, as the numpy call computes
    want = posenc.rope_shift(bits(cache).copy(), f, 5)
    posenc.rope_shift(cache, f, 5, out=cache)
    assert np.array_equal(bits(cache), want)


def test_torch_transposed_bhtd_views_and_per_batch_offsets(rng):
    f = posenc.freqs_default(DIM, BASE)
    B, H, T = 3, 4, 7
    base = torch.from_numpy(rng.uniform(-1, 1, (B, H, T, DIM)).astype(np.float32))
    xt = base.transpose(1, 2)  # (B, T, H, D) view of (B, H, T, D) memory: strided, no copy
    assert not xt.is_contiguous()
    want = posenc.rope_apply(base.numpy().transpose(0, 2, 1, 3), f, start=11, token_axis=1)
    assert np.array_equal(posenc.rope_apply(xt, f, start=11, token_axis=1), want)
    offs = np.array([0, 513, 2**31 - 10])
    got = posenc.rope_apply(base, f, token_axis=2, offsets=torch.from_numpy(offs))
    each = np.stack([posenc.rope_apply(base[b].numpy(), f, start=int(offs[b]), token_axis=1)
                     for b in range(B)])
    assert np.array_equal(got, each)
    # in place through the transposed view: every batch element at its own offset
    posenc.rope_apply(xt, f, token_axis=1, offsets=offs, out=xt)
    assert np.array_equal(base.numpy(), each)


class FakeCudaTensor:
    """What a CUDA tensor shows the binding: no buffer, DLPack on device 2."""

    def __dlpack_device__(self):
        return (2, 0)

    def __dlpack__(self, stream=None):  # must not be reached: refused by device first
        raise AssertionError("exported a CUDA tensor")


def test_torch_refusals_name_the_fix(rng):
    f = posenc.freqs_default(DIM, BASE)
    with pytest.raises(TypeError, match=r"x is a tensor on cuda:0 .*pass x.cpu\(\)"):
        posenc.rope_apply(FakeCudaTensor(), f)
    with pytest.raises(TypeError, match=r"dtype float64 .*x.to\(torch.float32\)"):
        posenc.rope_apply(torch.zeros((2, 1, DIM), dtype=torch.float64), f)
    with pytest.raises(TypeError, match=r"detach"):
        posenc.rope_apply(torch.zeros((2, 1, DIM), requires_grad=True), f)
    with pytest.raises(ValueError, match=r"x.contiguous\(\)"):
        posenc.rope_apply(torch.zeros((2, 1, 2 * DIM))[..., ::2], f)
    x = torch.zeros((4, 1, DIM))
    with pytest.raises(ValueError, match="overlaps"):
        posenc.rope_apply(x[:3], f, out=x[1:])
    before = x.clone()
    with pytest.raises(TypeError):
        posenc.rope_apply(x, f, out=torch.zeros((4, 1, DIM), dtype=torch.float16))
    assert torch.equal(x, before)
