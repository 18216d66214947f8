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
