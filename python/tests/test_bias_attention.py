"""ALiBi, T5 buckets and the reference attention against numpy float64 references."""
import numpy as np
import pytest

import posenc
import reference as ref


def test_alibi_slopes_match_press_et_al():
    for n in (1, 2, 8, 12, 16, 20, 40):
        got = posenc.alibi_slopes(n)
        # SPEC's closed form through one libm pow each: within 1 ulp (2.3e-16)
        c = 2 ** int(np.floor(np.log2(n)))
        exact = [2.0 ** (-8 * (h + 1) / c) if h < c else 2.0 ** (-4 * (2 * (h - c) + 1) / c) for h in range(n)]
        np.testing.assert_allclose(got, exact, rtol=2.3e-16)
        # Press et al.'s published code multiplies up to n - 1 rounded factors
        # (start * start**i): a few ulps each, so 4e-15 overall
        np.testing.assert_allclose(got, ref.alibi_slopes(n), rtol=4e-15)
    # powers of two are exact for up to 8 heads
    assert posenc.alibi_slopes(8).tolist() == [2.0**-k for k in range(1, 9)]
    s12 = posenc.alibi_slopes(12)
    np.testing.assert_allclose(s12[8:], [0.70710678, 0.35355339, 0.17677670, 0.08838835], atol=5e-9)


def test_alibi_bias():
    heads, nq, nk = 4, 3, 5
    b = posenc.alibi_bias(heads, nq, nk, dtype="float64")
    i = np.arange(nq)[:, None] + (nk - nq)
    dist = np.abs(i - np.arange(nk)[None, :])
    want = -np.array(ref.alibi_slopes(heads))[:, None, None] * dist
    assert b.shape == (heads, nq, nk) and np.array_equal(b, want)
    c = posenc.alibi_bias(heads, nq, nk, causal=True)
    assert c.dtype == np.float32
    assert np.isneginf(c[:, 0, 3:]).all() and np.isfinite(c[:, 2]).all()


def test_t5_buckets_match_hf_exactly():
    for bidi in (True, False):
        rs = range(-300, 301)
        got = posenc.t5_buckets(-300, 601, bidirectional=bidi)
        want = [ref.t5_bucket(r, bidi) for r in rs]
        assert got.tolist() == want
    facts = {-8: 8, -16: 10, -32: 12, 1: 17, 16: 26, 127: 31}
    for r, b in facts.items():
        assert posenc.t5_bucket(r) == b
    with pytest.raises(posenc.Error, match="num_buckets"):
        posenc.t5_bucket(3, num_buckets=3)


def test_t5_bias_gathers_the_table(rng):
    heads, nb = 3, 32
    table = rng.standard_normal((nb, heads)).astype(np.float32)  # HF layout
    b = posenc.t5_bias(table, 4, 6)
    i = np.arange(4)[:, None] + 2
    r = np.arange(6)[None, :] - i
    buckets = np.vectorize(ref.t5_bucket)(r)
    assert np.array_equal(b, table[buckets].transpose(2, 0, 1))
    hm = posenc.t5_bias(np.ascontiguousarray(table.T), 4, 6, layout="head_major")
    assert np.array_equal(hm, b)


def test_attention_matches_reference(rng):
    q = rng.standard_normal((5, 16)).astype(np.float32)
    k = rng.standard_normal((7, 16)).astype(np.float32)
    v = rng.standard_normal((7, 3)).astype(np.float32)
    bias = rng.standard_normal((5, 7)).astype(np.float32)
    # accumulated in double, rounded once: float32 rounding of the result is the tolerance
    for kw in ({}, {"causal": True}, {"bias": bias}, {"scale": 0.3}):
        got = posenc.attention(q, k, v, **kw)
        want = ref.attention(q, k, v, bias=kw.get("bias"), causal=kw.get("causal", False), scale=kw.get("scale"))
        np.testing.assert_allclose(got, want, rtol=2e-7, atol=1e-7)
    out = np.empty((5, 3), np.float32)
    assert posenc.attention(q, k, v, out=out) is out
    with pytest.raises(ValueError, match=r"v has shape \(6, 3\), want \(7, 3\)"):
        posenc.attention(q, k, v[:6])
    with pytest.raises(ValueError, match="out overlaps an input"):
        posenc.attention(q[:3, :3].copy(), k[:, :3].copy(), v, out=v[:3])


def test_attention_is_permutation_equivariant_without_positions(rng):
    x = rng.standard_normal((6, 8)).astype(np.float32)
    perm = rng.permutation(6)
    a = posenc.attention(x, x, x)
    b = posenc.attention(x[perm], x[perm], x[perm])
    np.testing.assert_allclose(b, a[perm], atol=1e-6)
    f = posenc.freqs_default(8)
    ar = posenc.attention_rope(x, x, x, f)
    br = posenc.attention_rope(x[perm], x[perm], x[perm], f)
    assert np.abs(br - ar[perm]).max() > 1e-3  # RoPE sees the order


def test_attention_rope_matches_reference(rng):
    q = rng.standard_normal((3, 16)).astype(np.float32)
    k = rng.standard_normal((5, 16)).astype(np.float32)
    v = rng.standard_normal((5, 4)).astype(np.float32)
    f = posenc.freqs_default(16)
    om = f.inv_freq.astype(np.longdouble) + f.inv_freq_lo
    for layout in ("interleaved", "half"):
        got = posenc.attention_rope(q, k, v, f, layout=layout, k_start=10, causal=True)
        qr = ref.rope(q, om, np.arange(12, 15), layout)  # queries default to the last keys
        kr = ref.rope(k, om, np.arange(10, 15), layout)
        want = ref.attention(qr, kr, v, causal=True)
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    qp = np.array([100, 0, 7])
    got = posenc.attention_rope(q, k, v, f, q_positions=qp, k_positions=range(5))
    want = ref.attention(ref.rope(q, om, qp, "half"), ref.rope(k, om, np.arange(5), "half"), v)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
