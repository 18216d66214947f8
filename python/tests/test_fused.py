"""posenc.rope_fused_qkv against a numpy float64 reference of RMSNorm + RoPE + store.

Tolerances: the library's f32 result of a rotated element is within
2^-24 (|x'| + A(|x| + 2|y|)) + 1e-11 A(|x| + |y|) of the exact rotation of its
f32 inputs (posenc.h), and the normalised inputs carry 1.5 ulp each (r rounded
to float32, then two float32 products, as Hugging Face's Qwen3RMSNorm); the
float64 reference itself is ~1e-16 relative. Bounding every term by the
largest magnitude in the head (A = 1 here): 2^-24 * (|x'| + 6 max|y|).
16-bit outputs add half an ulp of their storage, int8 half a scale step.
"""
import numpy as np
import pytest

import posenc


def omega(f):
    return f.inv_freq.astype(np.float64) + f.inv_freq_lo.astype(np.float64)


def rms_norm(x, w, eps, gemma):
    x = x.astype(np.float64)
    r = 1.0 / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps)
    return x * r * ((1.0 + w.astype(np.float64)) if gemma else w.astype(np.float64))


def rotate(y, f, pos, layout):
    """y: (T, H, D) float64 rotated at pos (T,) with f's frequencies."""
    d = f.rotary_dim
    out = y.copy()
    ang = pos[:, None].astype(np.float64) * omega(f)[None, :]  # (T, d/2)
    c, s = np.cos(ang)[:, None, :], np.sin(ang)[:, None, :]
    if layout == "half":
        a, b = y[..., : d // 2], y[..., d // 2 : d]
        out[..., : d // 2] = f.attention_factor * (a * c - b * s)
        out[..., d // 2 : d] = f.attention_factor * (a * s + b * c)
    else:
        a, b = y[..., 0:d:2], y[..., 1:d:2]
        out[..., 0:d:2] = f.attention_factor * (a * c - b * s)
        out[..., 1:d:2] = f.attention_factor * (a * s + b * c)
    return out


def stored(a):
    if a.dtype == np.uint16:  # bfloat16 as uint16
        return (a.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return a.astype(np.float64)


def half_ulp(dtype, x):
    if dtype == np.float16:
        return np.abs(x) * 2.0**-11 + 2.0**-25
    if dtype == np.uint16:
        return np.abs(x) * 2.0**-8
    return 0.0


def reference(qkv, f, nq, nkv, D, pos, layout, qw, kw, eps, gemma):
    T = qkv.shape[0]
    x = qkv.reshape(T, nq + 2 * nkv, D).astype(np.float64)
    q, k, v = x[:, :nq], x[:, nq : nq + nkv], x[:, nq + nkv :]
    qy = rms_norm(q, qw, eps, gemma) if qw is not None else q
    ky = rms_norm(k, kw, eps, gemma) if kw is not None else k
    return qy, rotate(qy, f, pos, layout), ky, rotate(ky, f, pos, layout), v


def f32_tol(y, want):
    return 2.0**-24 * 1.001 * (6 * np.abs(y).max(axis=-1, keepdims=True) + np.abs(want)) + 1e-30


CACHE_DTYPES = [np.float32, np.float16, np.uint16, np.int8]


@pytest.mark.parametrize("layout", ["half", "interleaved"])
@pytest.mark.parametrize("kdt", CACHE_DTYPES)
@pytest.mark.parametrize("gemma", [False, True])
def test_matches_float64_reference(layout, kdt, gemma):
    rng = np.random.default_rng(7)
    T, nq, nkv, D, d = 19, 6, 2, 24, 16
    qkv0 = (rng.standard_normal((T, (nq + 2 * nkv) * D)) * 3).astype(np.float32)
    qkv = qkv0.copy()
    qw = rng.uniform(-0.5, 0.5, D).astype(np.float32) if gemma else rng.uniform(0.5, 1.5, D).astype(np.float32)
    kw = rng.uniform(-0.5, 0.5, D).astype(np.float32) if gemma else rng.uniform(0.5, 1.5, D).astype(np.float32)
    f = posenc.freqs_default(d, base=10000.0)
    pos = np.arange(T, dtype=np.int64) * 3 + 11
    kc = np.zeros((T, nkv, D), kdt)
    vc = np.zeros((T, nkv, D), kdt)
    scales = {}
    if kdt == np.int8:
        scales = dict(k_scale=np.zeros((T, nkv), np.float32), v_scale=np.zeros((T, nkv), np.float32))
    q = posenc.rope_fused_qkv(qkv, f, nq, nkv, k_cache=kc, v_cache=vc, positions=pos, layout=layout,
                              q_norm_weight=qw, k_norm_weight=kw, norm_eps=1e-6, gemma_norm=gemma,
                              **scales)
    assert q is qkv
    qy, qr, ky, kr, v = reference(qkv0, f, nq, nkv, D, pos, layout, qw, kw, 1e-6, gemma)
    got_q = qkv.reshape(T, nq + 2 * nkv, D)[:, :nq].astype(np.float64)
    assert np.all(np.abs(got_q - qr) <= f32_tol(qy, qr))
    # k and v unchanged in qkv (only q is written in place)
    np.testing.assert_array_equal(qkv.reshape(T, -1, D)[:, nq:], qkv0.reshape(T, -1, D)[:, nq:])
    for cache, want, y, name in ((kc, kr, ky, "k"), (vc, v, None, "v")):
        tol = f32_tol(y, want) if y is not None else 0.0
        if kdt == np.int8:
            s = scales[name + "_scale"].astype(np.float64)[..., None]
            np.testing.assert_allclose(s[..., 0], np.abs(want).max(axis=-1) / 127, rtol=1e-6)
            got = cache.astype(np.float64) * s
            tol = tol + s * (0.5 + 2.0**-16)
        else:
            got = stored(cache)
            tol = tol + half_ulp(kdt, want)
        assert np.all(np.abs(got - want) <= tol), (name, np.max(np.abs(got - want) - tol))


def test_q_out_dtypes_gqa_partial_rotary_and_strided_cache():
    rng = np.random.default_rng(3)
    T, nq, nkv, D, d = 9, 8, 2, 32, 20
    qkv = rng.standard_normal((T, nq + 2 * nkv, D)).astype(np.float32)
    f = posenc.freqs_default(d)
    # the slot [5, 5 + T) of a bigger (layer, token, head, D) cache: strided views
    big_k = np.zeros((2, 40, nkv, D), np.float16)
    big_v = np.zeros((2, 40, nkv, D), np.float16)
    for qdt in (np.float32, np.float16, np.uint16):
        q_out = np.zeros((T, nq, D), qdt)
        r = posenc.rope_fused_qkv(qkv, f, nq, nkv, k_cache=big_k[1, 5 : 5 + T], v_cache=big_v[1, 5 : 5 + T],
                                  start=100, q_out=q_out, q_norm_weight=np.ones(D, np.float32))
        assert r is q_out
        qy, qr, _, kr, v = reference(qkv.reshape(T, -1), f, nq, nkv, D, np.arange(100, 100 + T),
                                     "half", np.ones(D, np.float32), None, 1e-6, False)
        assert np.all(np.abs(stored(q_out) - qr) <= f32_tol(qy, qr) + half_ulp(qdt, qr))
    assert np.all(big_k[0] == 0) and np.all(big_k[1, :5] == 0) and np.all(big_k[1, 5 + T :] == 0)
    assert np.all(np.abs(big_v[1, 5 : 5 + T].astype(np.float64) - v) <= half_ulp(np.float16, v))


def aligned_zeros(shape, dtype, align=64):
    """Zeros whose data starts on an `align`-byte boundary (numpy guarantees 16), so the
    non-temporal stores of stores='streaming' really run."""
    n = int(np.prod(shape)) * np.dtype(dtype).itemsize
    raw = np.zeros(n + align, np.uint8)
    off = (-raw.ctypes.data) % align
    return raw[off : off + n].view(dtype).reshape(shape)


def test_threads_and_store_policy_bit_identical():
    # threads split tokens and stores= moves bytes past the caches: neither changes a bit
    rng = np.random.default_rng(11)
    T, nq, nkv, D = 700, 16, 4, 128
    qkv0 = rng.standard_normal((T, (nq + 2 * nkv) * D)).astype(np.float32)
    f = posenc.freqs_default(D, base=1e6)
    w = rng.uniform(0.5, 1.5, D).astype(np.float32)
    outs = []
    for kw in ({"threads": 1}, {"threads": 2}, {"threads": 3}, {"stores": "streaming"},
               {"stores": "cached"}, {"threads": 2, "stores": "streaming"}):
        qkv = qkv0.copy()
        kc = np.zeros((T, nkv, D), np.int8)
        vc = aligned_zeros((T, nkv, D), np.float16)
        ks = np.zeros((T, nkv), np.float32)
        posenc.rope_fused_qkv(qkv, f, nq, nkv, k_cache=kc, v_cache=vc, k_scale=ks, q_norm_weight=w,
                              k_norm_weight=w, **kw)
        outs.append((qkv, kc, vc, ks))
    for o in outs[1:]:
        for a, b in zip(outs[0], o):
            assert a.tobytes() == b.tobytes()


def test_errors_name_the_argument_and_write_nothing():
    T, nq, nkv, D = 3, 2, 1, 8
    qkv = np.ones((T, (nq + 2 * nkv) * D), np.float32)
    f = posenc.freqs_default(D)
    kc = np.zeros((T, nkv, D), np.int8)
    vc = np.zeros((T, nkv, D), np.float16)
    before = qkv.copy()
    with pytest.raises(posenc.Error, match="k_scale"):
        posenc.rope_fused_qkv(qkv, f, nq, nkv, k_cache=kc, v_cache=vc)
    with pytest.raises(posenc.Error, match="norm_eps=-1"):
        posenc.rope_fused_qkv(qkv, f, nq, nkv, k_cache=vc, v_cache=vc.copy(), norm_eps=-1.0)
    with pytest.raises(posenc.Error, match="v_cache overlaps k_cache"):
        posenc.rope_fused_qkv(qkv, f, nq, nkv, k_cache=vc, v_cache=vc)
    with pytest.raises(ValueError, match="q_norm_weight has 4 entries"):
        posenc.rope_fused_qkv(qkv, f, nq, nkv, k_cache=vc, v_cache=vc.copy(),
                              q_norm_weight=np.ones(4, np.float32))
    with pytest.raises(TypeError, match="k_cache"):
        posenc.rope_fused_qkv(qkv, f, nq, nkv, k_cache=np.zeros((T, nkv, D)), v_cache=vc)
    with pytest.raises(ValueError, match="stores='fast' must be 'auto', 'cached' or 'streaming'"):
        posenc.rope_fused_qkv(qkv, f, nq, nkv, k_cache=vc, v_cache=vc.copy(), stores="fast")
    np.testing.assert_array_equal(qkv, before)
    assert not kc.any() and not vc.any()


@pytest.mark.parametrize("gemma", [False, True])
def test_norm_agrees_with_hugging_face_float32_formula(gemma):
    """The norm is Hugging Face's Qwen3RMSNorm / Gemma3RMSNorm float32 scaling
    (y = w * (x * rsqrt(mean(x^2) + eps)), Gemma: (x * rsqrt(...)) * (1 + w))
    with r the nearest float to the exact 1/rms; the reference computes its mean
    in float32, so its r is sometimes a neighbour of ours. Run through torch
    itself: with r taken from our double sum the elements are the reference's
    bits exactly; with the reference's own r most of them still are (docs/FUSED.md
    quotes the share), and every one is within a few ulp."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(7)
    T, nq, nkv, D = 64, 8, 2, 128
    qkv = (rng.standard_normal((T, (nq + 2 * nkv) * D)) * 3).astype(np.float32)
    x = qkv.reshape(T, nq + 2 * nkv, D)[:, :nq].copy()
    w = (rng.uniform(-0.5, 0.5, D) if gemma else rng.uniform(0.5, 1.5, D)).astype(np.float32)
    kc = np.zeros((T, nkv, D), np.float32)
    posenc.rope_fused_qkv(qkv, posenc.freqs_default(2, 1e6), nq, nkv, k_cache=kc, v_cache=kc.copy(),
                          q_norm_weight=w, norm_eps=1e-6, gemma_norm=gemma)
    got = qkv.reshape(T, nq + 2 * nkv, D)[:, :nq, 2:]  # rotary_dim 2: the rest is y itself

    xt, wt = torch.from_numpy(x), torch.from_numpy(w)

    def hf(r):
        h = xt * r
        return (h * (1.0 + wt) if gemma else wt * h).numpy()[:, :, 2:]

    xd = x.astype(np.float64)
    r_exact = torch.from_numpy((1.0 / np.sqrt((xd * xd).mean(-1, keepdims=True) + 1e-6)).astype(np.float32))
    assert np.array_equal(hf(r_exact).view(np.uint32), got.view(np.uint32))

    ref = hf(torch.rsqrt(xt.pow(2).mean(-1, keepdim=True) + 1e-6))
    same = np.mean(ref.view(np.uint32) == got.view(np.uint32))
    ulps = np.abs(ref.astype(np.float64) - got) / np.spacing(np.abs(ref))
    assert same >= 0.65 and ulps.max() <= 4, (same, ulps.max())  # measured: 71 %, 3 ulp
