"""Batch axes on the calls that came after rope_apply's: rope_apply_qk, the caller-table
rotation (rope_apply_table[_qk]), packed sequences (rope_apply_varlen), M-RoPE
(mrope_apply[_qk]) and the fused QKV epilogue (rope_fused_qkv). For each: x of
(B, T, H, D) with token_axis=1 and (B, H, T, D) with token_axis=2, per-batch offsets or
positions that differ per element, non-contiguous views; the batched result equals one
unbatched call per element bit for bit (whether the binding folded the batch into one call
or made one call per element) and the float64 reference within the documented bound;
refusals name the Python argument and leave every output untouched."""
import numpy as np
import pytest

import posenc
import reference as ref
from test_fused import CACHE_DTYPES, f32_tol, half_ulp, reference as fused_reference, stored
from test_tables import f32_bound, hf_mrope_positions, omega_of


def tokens_first(y, token_axis):
    """(B, H, T, D) -> (B, T, H, D) when the tokens sit on axis 2."""
    return y if token_axis == 1 else y.transpose(0, 2, 1, 3)


def batched(x, token_axis):
    """x (B, T, H, D) laid out for token_axis: as is, or (B, H, T, D) C-contiguous."""
    return x if token_axis == 1 else np.ascontiguousarray(x.transpose(0, 2, 1, 3))


def per_element(xa, token_axis, b):
    """Batch element b of a batched array as the (T, H, D) view an unbatched call takes."""
    return xa[b] if token_axis == 1 else xa[b].transpose(1, 0, 2)


def table_reference(x, c, s, pos, layout):
    """x (T, H, D) rotated in float64 by the stored table rows c[pos], s[pos]."""
    d = 2 * c.shape[1]
    a, b = ref.pairs(x, d, layout)
    x = x.astype(np.float64)
    cc, ss = c[pos].astype(np.float64)[:, None, :], s[pos].astype(np.float64)[:, None, :]
    out = x.copy()
    out[..., a] = x[..., a] * cc - x[..., b] * ss
    out[..., b] = x[..., a] * ss + x[..., b] * cc
    return out


# ----------------------------------------------------------------- rope_apply_qk


@pytest.mark.parametrize("token_axis", [1, 2])
def test_rope_apply_qk_offsets(rng, token_axis):
    f = posenc.freqs_default(32, 1e6)
    B, T = 3, 7
    q = rng.uniform(-1, 1, (B, T, 4, 32)).astype(np.float32)
    k = rng.uniform(-1, 1, (B, T, 2, 32)).astype(np.float32)
    offs = np.array([5, 0, 2**31 - 10])
    qa, ka = batched(q, token_axis), batched(k, token_axis)
    qo, ko = posenc.rope_apply_qk(qa, ka, f, token_axis=token_axis, offsets=offs)
    for b in range(B):
        want_q = ref.rope(q[b], omega_of(f), offs[b] + np.arange(T), "half")
        assert np.all(np.abs(tokens_first(qo, token_axis)[b] - want_q) <= f32_bound(q[b], want_q, 32, "half"))
        eq, ek = posenc.rope_apply_qk(q[b], k[b], f, start=int(offs[b]))
        assert np.array_equal(tokens_first(qo, token_axis)[b], eq)
        assert np.array_equal(tokens_first(ko, token_axis)[b], ek)
    # per-batch positions, in place
    pos = offs[:, None] + np.arange(T)
    posenc.rope_apply_qk(qa, ka, f, token_axis=token_axis, positions=pos, q_out=qa, k_out=ka)
    assert np.array_equal(qa, qo) and np.array_equal(ka, ko)


def test_rope_apply_qk_batch_mismatch_writes_nothing(rng):
    f = posenc.freqs_default(16)
    q = rng.uniform(-1, 1, (3, 4, 2, 16)).astype(np.float32)
    k = rng.uniform(-1, 1, (2, 4, 1, 16)).astype(np.float32)
    q0, k0 = q.copy(), k.copy()
    with pytest.raises(ValueError, match=r"k has batch 2 but q has batch 3"):
        posenc.rope_apply_qk(q, k, f, token_axis=1, offsets=[0, 1, 2], q_out=q, k_out=k)
    with pytest.raises(ValueError, match=r"offsets has shape \(2,\), want \(3,\)"):
        posenc.rope_apply_qk(q, q[:, :, :1].copy(), f, token_axis=1, offsets=[0, 1], q_out=q)
    assert np.array_equal(q, q0) and np.array_equal(k, k0)


# ----------------------------------------------------------------- tables


@pytest.mark.parametrize("token_axis", [1, 2])
@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_table_offsets_and_positions(rng, token_axis, layout, dtype):
    d, rows, B, T, H = 32, 64, 4, 9, 3
    f = posenc.freqs_default(d, 10000.0)
    c, s = posenc.rope_cos_sin(f, rows, dtype=dtype)
    x = rng.uniform(-1, 1, (B, T, H, d)).astype(np.float32)
    xa = batched(x, token_axis)
    offs = np.array([0, 3, 40, 55])  # element 3 reads up to row 63, the last
    y = posenc.rope_apply_table(xa, c, s, layout=layout, token_axis=token_axis, offsets=offs)
    yt = tokens_first(y, token_axis)
    for b in range(B):
        p = offs[b] + np.arange(T)
        want = table_reference(x[b], c, s, p, layout)
        assert np.all(np.abs(yt[b] - want) <= f32_bound(x[b], want, d, layout))
        assert np.array_equal(yt[b], posenc.rope_apply_table(x[b], c, s, layout=layout, start=int(offs[b])))
    # (B, T) positions, shuffled per element
    pos = np.stack([rng.permutation(rows)[:T] for _ in range(B)])
    y2 = posenc.rope_apply_table(xa, c, s, layout=layout, token_axis=token_axis, positions=pos)
    for b in range(B):
        assert np.array_equal(tokens_first(y2, token_axis)[b],
                              posenc.rope_apply_table(x[b], c, s, layout=layout, positions=pos[b]))
    # shared positions (one list for every element) and the q/k call, in place
    shared = pos[0]
    y3 = posenc.rope_apply_table(xa, c, s, layout=layout, token_axis=token_axis, positions=shared)
    k = rng.uniform(-1, 1, (B, T, 1, d)).astype(np.float32)
    ka = batched(k, token_axis)
    qo, ko = posenc.rope_apply_table_qk(xa, ka, c, s, layout=layout, token_axis=token_axis, offsets=offs)
    assert np.array_equal(qo, y)
    for b in range(B):
        assert np.array_equal(tokens_first(y3, token_axis)[b],
                              posenc.rope_apply_table(x[b], c, s, layout=layout, positions=shared))
        assert np.array_equal(tokens_first(ko, token_axis)[b],
                              posenc.rope_apply_table(k[b], c, s, layout=layout, start=int(offs[b])))
    posenc.rope_apply_table(xa, c, s, layout=layout, token_axis=token_axis, offsets=offs, out=xa)
    assert np.array_equal(xa, y)


def test_table_non_contiguous_views(rng):
    """x a window of a bigger cache (B, T_max, H, D)[:, 2:2+T]: no fold fits, one call per
    element on the strided views; out a transposed view."""
    d, rows, B, T = 16, 40, 3, 5
    f = posenc.freqs_default(d)
    c, s = posenc.rope_cos_sin(f, rows)
    big = rng.uniform(-1, 1, (B, 12, 2, d)).astype(np.float32)
    x = big[:, 2:2 + T]
    out = np.zeros((B, 2, T, d), np.float32).transpose(0, 2, 1, 3)
    offs = np.array([7, 0, 30])
    posenc.rope_apply_table(x, c, s, token_axis=1, offsets=offs, out=out)
    for b in range(B):
        assert np.array_equal(out[b], posenc.rope_apply_table(np.ascontiguousarray(x[b]), c, s,
                                                              start=int(offs[b])))


def test_table_refusals_write_nothing(rng):
    d, rows = 16, 20
    f = posenc.freqs_default(d)
    c, s = posenc.rope_cos_sin(f, rows)
    x = rng.uniform(-1, 1, (3, 4, 2, d)).astype(np.float32)
    x0 = x.copy()
    # element 2 reads rows 17..20: row 20 is past the end; elements 0 and 1 are fine
    with pytest.raises(ValueError, match=r"offsets\[2\]=17: its 4 tokens read rows outside the table's \[0, 20\)"):
        posenc.rope_apply_table(x, c, s, token_axis=1, offsets=[0, 5, 17], out=x)
    pos = np.zeros((3, 4), np.int64)
    pos[1, 3] = 20
    with pytest.raises(ValueError, match=r"positions\[1, 3\]=20 outside the table's rows \[0, 20\)"):
        posenc.rope_apply_table(x, c, s, token_axis=1, positions=pos, out=x)
    with pytest.raises(ValueError, match=r"offsets has shape \(4,\), want \(3,\)"):
        posenc.rope_apply_table(x, c, s, token_axis=1, offsets=[0, 1, 2, 3], out=x)
    with pytest.raises(ValueError, match=r"offsets per batch element need x as \(batch, tokens"):
        posenc.rope_apply_table(x[0], c, s, offsets=[0, 1, 2, 3])
    with pytest.raises(ValueError, match=r"token_axis"):
        posenc.rope_apply_table(x, c, s, offsets=[0, 1, 2], out=x)
    assert np.array_equal(x, x0)


# ----------------------------------------------------------------- packed sequences


@pytest.mark.parametrize("token_axis", [1, 2])
def test_varlen_per_batch_cu_seqlens(rng, token_axis):
    f = posenc.freqs_default(32, 1e4)
    B, T, H = 3, 10, 2
    x = rng.uniform(-1, 1, (B, T, H, 32)).astype(np.float32)
    xa = batched(x, token_axis)
    cu = np.array([[0, 4, 10], [0, 0, 10], [0, 7, 10]], np.int32)  # per element, int32 as flash-attn
    st = np.array([[0, 100], [5, 9], [2**31 - 8, 3]])
    y = posenc.rope_apply_varlen(xa, f, cu, seq_starts=st, token_axis=token_axis)
    for b in range(B):
        pos = np.concatenate([st[b, i] + np.arange(cu[b, i + 1] - cu[b, i]) for i in range(2)])
        want = ref.rope(x[b], omega_of(f), pos, "half")
        yb = tokens_first(y, token_axis)[b]
        assert np.all(np.abs(yb - want) <= f32_bound(x[b], want, 32, "half"))
        assert np.array_equal(yb, posenc.rope_apply_varlen(x[b], f, cu[b], seq_starts=st[b]))
        assert np.array_equal(yb, posenc.rope_apply(x[b], f, positions=pos))
    # one cu_seqlens for every element, per-element starts
    y2 = posenc.rope_apply_varlen(xa, f, cu[0], seq_starts=st, token_axis=token_axis)
    for b in range(B):
        assert np.array_equal(tokens_first(y2, token_axis)[b],
                              posenc.rope_apply_varlen(x[b], f, cu[0], seq_starts=st[b]))
    # one packing and one set of starts for every element (one call when the batch folds
    # into heads, one per element otherwise)
    y4 = posenc.rope_apply_varlen(xa, f, cu[2], seq_starts=st[2], token_axis=token_axis)
    for b in range(B):
        assert np.array_equal(tokens_first(y4, token_axis)[b],
                              posenc.rope_apply_varlen(x[b], f, cu[2], seq_starts=st[2]))
    # and the table calls take the same packed positions
    c, s = posenc.rope_cos_sin(f, 64)
    small = np.array([[0, 1], [2, 3], [50, 7]])
    y3 = posenc.rope_apply_table(xa, c, s, cu_seqlens=cu, seq_starts=small, token_axis=token_axis)
    for b in range(B):
        assert np.array_equal(tokens_first(y3, token_axis)[b],
                              posenc.rope_apply_table(x[b], c, s, cu_seqlens=cu[b], seq_starts=small[b]))


def test_varlen_refusals_write_nothing(rng):
    f = posenc.freqs_default(16)
    c, s = posenc.rope_cos_sin(f, 16)
    x = rng.uniform(-1, 1, (3, 6, 1, 16)).astype(np.float32)
    x0 = x.copy()
    good = [0, 2, 6]
    with pytest.raises(ValueError, match=r"cu_seqlens\[2, 2\]=4 < the entry before it, 5"):
        posenc.rope_apply_varlen(x, f, np.array([[0, 2, 2, 6], [0, 3, 3, 6], [0, 5, 4, 6]]), token_axis=1, out=x)
    with pytest.raises(ValueError, match=r"give positions, offsets or cu_seqlens: one of them"):
        posenc.rope_apply_table(x, c, s, cu_seqlens=np.array(good), offsets=[0, 1, 2], token_axis=1, out=x)
    with pytest.raises(ValueError, match=r"cu_seqlens\[1, 2\]=5 must equal tokens=6"):
        posenc.rope_apply_varlen(x, f, np.array([good, [0, 2, 5], good]), token_axis=1, out=x)
    with pytest.raises(ValueError, match=r"seq_starts has shape \(2, 2\), want \(2,\), or \(3, 2\)"):
        posenc.rope_apply_varlen(x, f, np.array(good), seq_starts=np.zeros((2, 2), np.int64), token_axis=1, out=x)
    with pytest.raises(OverflowError, match=r"sequence 1 of batch element 2 starts at=9223372036854775805"):
        posenc.rope_apply_varlen(x, f, np.array(good), seq_starts=[[0, 0], [0, 0], [0, 2**63 - 3]],
                                 token_axis=1, out=x)
    with pytest.raises(ValueError, match=r"sequence 0 of batch element 1 starts at=15: .*\[0, 16\)"):
        posenc.rope_apply_table(x, c, s, cu_seqlens=np.array(good), seq_starts=[[0, 0], [15, 0], [0, 0]],
                                token_axis=1, out=x)
    assert np.array_equal(x, x0)


# ----------------------------------------------------------------- M-RoPE


@pytest.mark.parametrize("token_axis", [1, 2])
@pytest.mark.parametrize("mode,sections", [("blocked", [8, 4, 4]), ("interleaved", [6, 5, 5])])
def test_mrope_per_batch_positions(rng, token_axis, mode, sections):
    d = 32
    f = posenc.freqs_default(d, 1e6)
    B, H = 3, 2
    pos = np.stack([hf_mrope_positions(3 + b, 2, 3)[:9] for b in range(B)])  # (B, 9, 3)
    pos = pos + np.array([0, 1000, 77])[:, None, None]
    T = pos.shape[1]
    x = rng.uniform(-1, 1, (B, T, H, d)).astype(np.float32)
    xa = batched(x, token_axis)
    y = posenc.mrope_apply(xa, f, pos, sections, mode=mode, token_axis=token_axis)
    axes = np.array(posenc.mrope_slot_axes(d, sections, mode))
    for b in range(B):
        th = np.fmod(pos[b][:, axes].astype(np.longdouble) * omega_of(f)[None, :], ref.TWO_PI)
        c, s = np.cos(th).astype(np.float64)[:, None, :], np.sin(th).astype(np.float64)[:, None, :]
        a, bb = x[b][..., : d // 2].astype(np.float64), x[b][..., d // 2:].astype(np.float64)
        want = np.concatenate([a * c - bb * s, a * s + bb * c], -1)
        yb = tokens_first(y, token_axis)[b]
        assert np.all(np.abs(yb - want) <= f32_bound(x[b], want, d, "half"))
        assert np.array_equal(yb, posenc.mrope_apply(x[b], f, pos[b], sections, mode=mode))
    # (T, 3) for every element, and q with k
    k = rng.uniform(-1, 1, (B, T, 1, d)).astype(np.float32)
    ka = batched(k, token_axis)
    y2 = posenc.mrope_apply(xa, f, pos[1], sections, mode=mode, token_axis=token_axis, threads=2)
    qo, ko = posenc.mrope_apply_qk(xa, ka, f, pos, sections, mode=mode, token_axis=token_axis)
    assert np.array_equal(qo, y)
    for b in range(B):
        assert np.array_equal(tokens_first(y2, token_axis)[b],
                              posenc.mrope_apply(x[b], f, pos[1], sections, mode=mode))
        assert np.array_equal(tokens_first(ko, token_axis)[b],
                              posenc.mrope_apply(k[b], f, pos[b], sections, mode=mode))


def test_mrope_refusals_write_nothing(rng):
    f = posenc.freqs_default(16)
    x = rng.uniform(-1, 1, (2, 5, 1, 16)).astype(np.float32)
    x0 = x.copy()
    with pytest.raises(ValueError, match=r"positions has shape \(3, 5, 3\), want \(5, 3\), or \(2, 5, 3\)"):
        posenc.mrope_apply(x, f, np.zeros((3, 5, 3), np.int64), [4, 2, 2], token_axis=1, out=x)
    with pytest.raises(ValueError, match=r"positions per batch element need x as"):
        posenc.mrope_apply(x[0], f, np.zeros((2, 5, 3), np.int64), [4, 2, 2])
    assert np.array_equal(x, x0)


# ----------------------------------------------------------------- fused epilogue


def fused_args(rng, B, T, nq, nkv, D, kdt):
    qkv = (rng.standard_normal((B, T, (nq + 2 * nkv) * D)) * 3).astype(np.float32)
    qw = rng.uniform(0.5, 1.5, D).astype(np.float32)
    kw = rng.uniform(0.5, 1.5, D).astype(np.float32)
    return qkv, qw, kw


@pytest.mark.parametrize("kdt", CACHE_DTYPES)
@pytest.mark.parametrize("window", [False, True])
@pytest.mark.parametrize("heads_axis", [False, True])
def test_fused_batched(rng, kdt, window, heads_axis):
    """qkv (B, T, F) or (B, T, H, D); caches (B, T, n_kv, D) either whole (the batch folds
    into tokens: one call) or windows [offsets[b], offsets[b] + T) of a bigger cache
    (B, T_max, n_kv, D) sliced as (B, T, ...) at one token offset (one call per element)."""
    B, T, nq, nkv, D, Tmax = 3, 5, 4, 2, 16, 12
    f = posenc.freqs_default(D, 1e4)
    qkv, qw, kw = fused_args(rng, B, T, nq, nkv, D, kdt)
    offs = np.array([0, 4, 9])
    if window:  # every element writes tokens [3, 3 + T) of its own cache rows
        kbig = np.zeros((B, Tmax, nkv, D), kdt)
        vbig = np.zeros((B, Tmax, nkv, D), kdt)
        kc, vc = kbig[:, 3:3 + T], vbig[:, 3:3 + T]
    else:
        kc, vc = np.zeros((B, T, nkv, D), kdt), np.zeros((B, T, nkv, D), kdt)
    scales = {}
    if kdt == np.int8:
        scales = dict(k_scale=np.zeros((B, T, nkv), np.float32), v_scale=np.zeros((B, T, nkv), np.float32))
    q_in = qkv.reshape(B, T, nq + 2 * nkv, D) if heads_axis else qkv
    qo = np.zeros((B, T, nq, D), np.float32)
    r = posenc.rope_fused_qkv(q_in, f, nq, nkv, k_cache=kc, v_cache=vc, offsets=offs, q_norm_weight=qw,
                              k_norm_weight=kw, q_out=qo, **scales)
    assert r is qo
    for b in range(B):
        pos = offs[b] + np.arange(T)
        qy, qr, ky, kr, v = fused_reference(qkv[b], f, nq, nkv, D, pos, "half", qw, kw, 1e-6, False)
        assert np.all(np.abs(qo[b] - qr) <= f32_tol(qy, qr))
        if kdt == np.int8:
            assert np.all(np.abs(kc[b] * scales["k_scale"][b][..., None] - kr)
                          <= scales["k_scale"][b][..., None] * (0.5 + 2.0**-17) + f32_tol(ky, kr))
        else:
            assert np.all(np.abs(stored(kc[b]) - kr) <= f32_tol(ky, kr) + half_ulp(kdt, kr) * 1.01)
        # bit for bit one unbatched call
        k1, v1 = np.zeros((T, nkv, D), kdt), np.zeros((T, nkv, D), kdt)
        s1 = {n: np.zeros((T, nkv), np.float32) for n in scales}
        q1 = posenc.rope_fused_qkv(qkv[b].copy(), f, nq, nkv, k_cache=k1, v_cache=v1, start=int(offs[b]),
                                   q_norm_weight=qw, k_norm_weight=kw, **s1)
        assert np.array_equal(q1.reshape(T, -1, D)[:, :nq], qo[b])
        assert np.array_equal(k1, kc[b]) and np.array_equal(v1, vc[b])
        for n in scales:
            assert np.array_equal(s1[n], scales[n][b])
    if window:  # nothing outside the windows was written
        assert not kbig[:, :3].any() and not kbig[:, 3 + T:].any()


def test_fused_batched_in_place_positions_and_threads(rng):
    B, T, nq, nkv, D = 2, 6, 2, 1, 32
    f = posenc.freqs_default(D, 1e6)
    qkv, qw, kw = fused_args(rng, B, T, nq, nkv, D, np.float16)
    pos = rng.integers(0, 10**6, (B, T))
    kc, vc = np.zeros((B, T, nkv, D), np.float16), np.zeros((B, T, nkv, D), np.float16)
    kc2, vc2 = kc.copy(), vc.copy()
    a = qkv.copy()
    r = posenc.rope_fused_qkv(a, f, nq, nkv, k_cache=kc, v_cache=vc, positions=pos)
    assert r is a
    b2 = qkv.copy()
    posenc.rope_fused_qkv(b2, f, nq, nkv, k_cache=kc2, v_cache=vc2, positions=pos, threads=2)
    assert np.array_equal(a, b2) and np.array_equal(kc, kc2)
    for b in range(B):
        k1, v1 = np.zeros((T, nkv, D), np.float16), np.zeros((T, nkv, D), np.float16)
        q1 = posenc.rope_fused_qkv(qkv[b].copy(), f, nq, nkv, k_cache=k1, v_cache=v1, positions=pos[b])
        assert np.array_equal(q1, a[b]) and np.array_equal(k1, kc[b]) and np.array_equal(v1, vc[b])


def test_fused_batched_refusals_write_nothing(rng):
    B, T, nq, nkv, D = 3, 4, 2, 1, 16
    f = posenc.freqs_default(D)
    qkv, _, _ = fused_args(rng, B, T, nq, nkv, D, np.float32)
    q0 = qkv.copy()
    kc, vc = np.zeros((B, T, nkv, D), np.float32), np.zeros((B, T, nkv, D), np.float32)
    with pytest.raises(ValueError, match=r"k_cache has batch 2 but qkv has batch 3"):
        posenc.rope_fused_qkv(qkv, f, nq, nkv, k_cache=kc[:2], v_cache=vc[:2])
    with pytest.raises(ValueError, match=r"v_cache has batch 2 but qkv has batch 3"):
        posenc.rope_fused_qkv(qkv, f, nq, nkv, k_cache=kc, v_cache=vc[:2])
    with pytest.raises(ValueError, match=r"offsets has shape \(2,\), want \(3,\)"):
        posenc.rope_fused_qkv(qkv, f, nq, nkv, k_cache=kc, v_cache=vc, offsets=[0, 1])
    with pytest.raises(OverflowError, match=r"offsets\[2\]=.* overflow int64"):
        posenc.rope_fused_qkv(qkv, f, nq, nkv, k_cache=kc, v_cache=vc, offsets=[0, 1, 2**63 - 2])
    with pytest.raises(ValueError, match=r"positions has shape \(3, 5\), want \(4,\), or \(3, 4\)"):
        posenc.rope_fused_qkv(qkv, f, nq, nkv, k_cache=kc, v_cache=vc, positions=np.zeros((3, 5), np.int64))
    # element 1's cache is element 0's q slice of qkv: caught over the whole batch
    alias = qkv.reshape(B, T, nq + 2 * nkv, D)[:, :, :nkv]
    with pytest.raises(ValueError, match=r"k_cache overlaps qkv"):
        posenc.rope_fused_qkv(qkv, f, nq, nkv, k_cache=alias, v_cache=vc, q_out=np.zeros((B, T, nq, D),
                                                                                          np.float32))
    with pytest.raises(ValueError, match=r"offsets per batch element need k_cache and v_cache as \(batch"):
        posenc.rope_fused_qkv(qkv[0], f, nq, nkv, k_cache=kc[0], v_cache=vc[0], offsets=[0])
    assert np.array_equal(qkv, q0) and not kc.any() and not vc.any()


# ----------------------------------------------------------------- random layouts


def random_view(rng, B, T, H, d, token_axis):
    """A (B, T, H, d) or (B, H, T, d) float32 view of a bigger buffer: maybe a window along
    the tokens and the heads, maybe the batch axis stepping over elements, maybe a
    transpose of the other order; rows always contiguous."""
    pad_t, pad_h, step_b = rng.integers(0, 3), rng.integers(0, 2), rng.integers(1, 3)
    transposed = rng.integers(0, 2) == 1
    shape = (B * step_b, H + pad_h, T + pad_t, d) if transposed else (B * step_b, T + pad_t, H + pad_h, d)
    buf = rng.uniform(-1, 1, shape).astype(np.float32)
    v = buf[::step_b, :H, :T] if transposed else buf[::step_b, :T, :H]  # (B, H, T, d) or (B, T, H, d)
    order_is_bhtd = transposed
    if (token_axis == 2) != order_is_bhtd:
        v = v.transpose(0, 2, 1, 3)
    return v


def test_random_layouts_equal_per_element_calls(rng):
    """Whatever the strides, the batched call (folded or per element) gives the bits of
    one unbatched call per element on a contiguous copy."""
    d, rows = 16, 80
    f = posenc.freqs_default(d, 1e4)
    c, s = posenc.rope_cos_sin(f, rows)
    for _ in range(60):
        B, T, H = rng.integers(1, 4), rng.integers(1, 6), rng.integers(1, 4)
        ta = int(rng.integers(1, 3))
        x = random_view(rng, B, T, H, d, ta)
        xs = [np.ascontiguousarray(per_element(x, ta, b)) for b in range(B)]
        kind = rng.integers(0, 4)
        if kind == 0:
            kwargs, each = dict(offsets=rng.integers(0, rows - T, B)), None
            each = [dict(start=int(o)) for o in kwargs["offsets"]]
        elif kind == 1:
            kwargs = dict(positions=rng.integers(0, rows, (B, T)))
            each = [dict(positions=p) for p in kwargs["positions"]]
        elif kind == 2:
            p = rng.integers(0, rows, T)
            kwargs, each = dict(positions=p), [dict(positions=p)] * B
        else:
            kwargs, each = dict(start=int(rng.integers(0, rows - T))), None
            each = [dict(start=kwargs["start"])] * B
        y = posenc.rope_apply_table(x, c, s, token_axis=ta, **kwargs)
        z = posenc.rope_apply(x, f, token_axis=ta, **kwargs)
        for b in range(B):
            assert np.array_equal(per_element(y, ta, b), posenc.rope_apply_table(xs[b], c, s, **each[b]))
            assert np.array_equal(per_element(z, ta, b), posenc.rope_apply(xs[b], f, **each[b]))
        # in place on the view itself
        before = x.copy()
        posenc.rope_apply_table(x, c, s, token_axis=ta, out=x, **kwargs)
        assert np.array_equal(x, y) and not np.array_equal(x, before) or T * H == 0


def test_random_layouts_q_and_k_fold_differently(rng):
    """q and k of different layouts (one folds, the other does not): the pair call runs
    one call per element, bit for bit the unbatched pair calls; M-RoPE the same."""
    d, rows = 16, 60
    f = posenc.freqs_default(d, 1e4)
    c, s = posenc.rope_cos_sin(f, rows)
    for _ in range(40):
        B, T = rng.integers(1, 4), rng.integers(1, 6)
        ta = int(rng.integers(1, 3))
        q = random_view(rng, B, T, rng.integers(1, 4), d, ta)
        k = random_view(rng, B, T, rng.integers(1, 3), d, ta)
        qs = [np.ascontiguousarray(per_element(q, ta, b)) for b in range(B)]
        ks = [np.ascontiguousarray(per_element(k, ta, b)) for b in range(B)]
        pos = rng.integers(0, rows, (B, T))
        p3 = rng.integers(0, 10**5, (B, T, 3))
        shared = rng.integers(0, 2) == 1
        qo, ko = posenc.rope_apply_qk(q, k, f, token_axis=ta, positions=pos[0] if shared else pos)
        to, uo = posenc.rope_apply_table_qk(q, k, c, s, token_axis=ta, positions=pos[0] if shared else pos)
        mo, no = posenc.mrope_apply_qk(q, k, f, p3[0] if shared else p3, [4, 2, 2], token_axis=ta)
        for b in range(B):
            pb, p3b = (pos[0], p3[0]) if shared else (pos[b], p3[b])
            eq, ek = posenc.rope_apply_qk(qs[b], ks[b], f, positions=pb)
            tq, tk = posenc.rope_apply_table_qk(qs[b], ks[b], c, s, positions=pb)
            mq, mk = posenc.mrope_apply_qk(qs[b], ks[b], f, p3b, [4, 2, 2])
            for got, want in [(qo, eq), (ko, ek), (to, tq), (uo, tk), (mo, mq), (no, mk)]:
                assert np.array_equal(per_element(got, ta, b), want)
