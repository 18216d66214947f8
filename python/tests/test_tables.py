"""The one driver's angle sources through the binding: rotation from caller cos/sin tables
(float32/float64/float16/bfloat16, d/2 or Hugging Face's duplicated d entries) against the
float64/longdouble reference with the table's storage error; f16/bf16 caches; packed
sequences (cu_seqlens + seq_starts) against the same positions listed; M-RoPE in 16-bit
storage, on threads and with q and k together; rejected calls."""
import numpy as np
import pytest

import posenc
import reference as ref


def omega_of(f):
    return f.inv_freq.astype(np.longdouble) + f.inv_freq_lo.astype(np.longdouble)


# half an ulp of storage of an entry of magnitude <= 1 (f16 below 2^-14: 2^-25 absolute)
STORAGE = {"float32": 2.0**-24, "float64": 1.3e-15, "float16": 2.0**-11, "bfloat16": 2.0**-8}


def f32_bound(x, want, d, layout):
    """The documented f32 bound of include/posenc.h per output element x' of input x with
    partner y: 2^-24 (|x'| + |x| + 2|y|) (1 + 2^-20) + 1e-11 (|x| + |y|); exact copies past d."""
    x = np.asarray(x, dtype=np.float64)
    a, b = ref.pairs(x, d, layout)
    tol = np.zeros_like(want)
    xa, xb = np.abs(x[..., a]), np.abs(x[..., b])
    tol[..., a] = 2.0**-24 * (np.abs(want[..., a]) + xa + 2 * xb) * (1 + 2.0**-20) + 1e-11 * (xa + xb)
    tol[..., b] = 2.0**-24 * (np.abs(want[..., b]) + xb + 2 * xa) * (1 + 2.0**-20) + 1e-11 * (xa + xb)
    return tol


def exact_table(f, rows):
    th = np.arange(rows, dtype=np.longdouble)[:, None] * omega_of(f)[None, :]
    th = np.fmod(th, ref.TWO_PI)
    return np.cos(th).astype(np.float64), np.sin(th).astype(np.float64)


def as_float(t, dtype):
    return ref.bf16_to_f32(t).astype(np.float64) if dtype == "bfloat16" else t.astype(np.float64)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize("duplicated", [False, True])
def test_table_rotation_matches_reference(rng, dtype, layout, duplicated):
    d, rows = 32, 50
    f = posenc.freqs_default(d, 10000.0)
    c, s = posenc.rope_cos_sin(f, rows, dtype="uint16" if dtype == "bfloat16" else dtype)
    assert c.shape == (rows, d // 2)
    ec, es = exact_table(f, rows)
    err = max(np.abs(as_float(c, dtype) - ec).max(), np.abs(as_float(s, dtype) - es).max())
    # the stored entries are correctly rounded: within half an ulp of storage, and that is
    # the actual error (reached within a factor 4 over 800 entries)
    assert err <= STORAGE[dtype] + 1.3e-15
    if dtype != "float64":
        assert err > STORAGE[dtype] / 4
    if duplicated:  # HF's (T, d): cat(f, f) for rotate_half, repeat_interleave(f, 2) otherwise
        c, s = ((np.concatenate([c, c], 1), np.concatenate([s, s], 1)) if layout == "half"
                else (np.repeat(c, 2, 1), np.repeat(s, 2, 1)))
    x = rng.uniform(-1, 1, (23, 2, 40)).astype(np.float32)
    pos = rng.integers(0, rows, 23)
    y = posenc.rope_apply_table(x, c, s, rotary_dim=d, layout=layout, positions=pos)
    want = ref.rope(x, omega_of(f), pos, layout)
    tol = f32_bound(x, want, d, layout)
    a, b = ref.pairs(x, d, layout)
    storage = STORAGE[dtype] * (np.abs(x[..., a]) + np.abs(x[..., b]))
    tol[..., a] += storage
    tol[..., b] += storage
    assert np.all(np.abs(y.astype(np.float64) - want) <= tol)
    assert np.array_equal(y[..., d:], x[..., d:])
    # backward: (cos, -sin), the inverse of a unit table
    back = posenc.rope_apply_table(y, c, s, rotary_dim=d, layout=layout, positions=pos,
                                   direction="backward")
    assert np.abs(back.astype(np.float64) - x).max() <= 4 * (STORAGE[dtype] + 2.0**-23) * 2


def test_table_qk_threads_and_in_place(rng):
    d = 64
    f = posenc.freqs_default(d, 500000.0)
    c, s = posenc.rope_cos_sin(f, 600)
    q = rng.uniform(-1, 1, (512, 8, d)).astype(np.float32)
    k = rng.uniform(-1, 1, (512, 2, d)).astype(np.float32)
    q1 = posenc.rope_apply_table(q, c, s, start=40)
    k1 = posenc.rope_apply_table(k, c, s, start=40)
    q2, k2 = posenc.rope_apply_table_qk(q, k, c, s, start=40, threads=3)
    assert np.array_equal(q1, q2) and np.array_equal(k1, k2)
    # the same rows from rope_apply within one rotation's bound each
    want = ref.rope(q, omega_of(f), np.arange(40, 552), "half")
    tol = f32_bound(q, want, d, "half") + 2.0**-24 * 2 * np.abs(q).max()
    assert np.all(np.abs(q1 - want) <= tol)
    qq = q.copy()
    assert posenc.rope_apply_table(qq, c, s, start=40, out=qq) is qq
    assert np.array_equal(qq, q1)


def test_table_rejects_rows_past_the_end(rng):
    f = posenc.freqs_default(16, 1e4)
    c, s = posenc.rope_cos_sin(f, 10)
    x = rng.uniform(-1, 1, (4, 16)).astype(np.float32)
    before = x.copy()
    with pytest.raises(ValueError, match="outside the table's rows"):
        posenc.rope_apply_table(x, c, s, start=8, out=x)
    with pytest.raises(ValueError, match="entries per row"):
        posenc.rope_apply_table(x, c[:, :5], s[:, :5])
    with pytest.raises(ValueError, match="a table does not state its magnitude"):
        posenc.rope_apply_table(x, c, s, direction="inverse", out=x)
    assert np.array_equal(x, before)


@pytest.mark.parametrize("cu_dtype", [np.int32, np.int64])
def test_varlen_equals_listed_positions(rng, cu_dtype):
    d = 32
    f = posenc.freqs_default(d, 10000.0)
    cu = np.array([0, 100, 100, 333, 700], dtype=cu_dtype)  # one empty sequence
    starts = np.array([0, 7, 2**31 - 5, 1000], dtype=np.int64)
    x = rng.uniform(-1, 1, (700, 3, d)).astype(np.float32)
    listed = np.concatenate([starts[i] + np.arange(cu[i + 1] - cu[i]) for i in range(4)])
    want = posenc.rope_apply(x, f, positions=listed)
    got = posenc.rope_apply_varlen(x, f, cu, seq_starts=starts, threads=2)
    assert np.array_equal(got, want)
    exact = ref.rope(x, omega_of(f), listed, "half")
    assert np.all(np.abs(got - exact) <= f32_bound(x, exact, d, "half"))
    # no starts: every sequence from 0; the same positions through a table
    got0 = posenc.rope_apply_varlen(x, f, cu)
    listed0 = np.concatenate([np.arange(cu[i + 1] - cu[i]) for i in range(4)])
    assert np.array_equal(got0, posenc.rope_apply(x, f, positions=listed0))
    c, s = posenc.rope_cos_sin(f, 400)
    assert np.array_equal(posenc.rope_apply_table(x, c, s, cu_seqlens=cu),
                          posenc.rope_apply_table(x, c, s, positions=listed0))


def test_varlen_rejects_bad_cu_seqlens(rng):
    f = posenc.freqs_default(16, 1e4)
    x = rng.uniform(-1, 1, (5, 16)).astype(np.float32)
    before = x.copy()
    for cu, msg in [([1, 5], "cu_seqlens\\[0\\]=1 must be 0"),
                    ([0, 3, 2, 5], "must not decrease"),
                    ([0, 4], "must equal tokens=5")]:
        with pytest.raises(ValueError, match=msg):
            posenc.rope_apply_varlen(x, f, np.array(cu), out=x)
    assert np.array_equal(x, before)


def hf_mrope_positions(text, gh, gw):
    t = [(i, i, i) for i in range(text)]
    t += [(text, text + r, text + c) for r in range(gh) for c in range(gw)]
    return np.array(t, dtype=np.int64)


@pytest.mark.parametrize("mode,sections", [("blocked", (16, 8, 8)), ("interleaved", (12, 10, 10))])
def test_mrope_16bit_threads_qk(rng, mode, sections):
    d = 64
    f = posenc.freqs_default(d, 1e6)
    pos = hf_mrope_positions(10, 20, 30)
    T = len(pos)
    x = rng.uniform(-1, 1, (T, 4, d)).astype(np.float32)
    axes = np.array(posenc.mrope_slot_axes(d, list(sections), mode))
    # the reference: every slot at its axis' position
    p_slot = pos[:, axes].astype(np.longdouble)
    th = np.fmod(p_slot * omega_of(f)[None, :], ref.TWO_PI)
    c, s = np.cos(th).astype(np.float64)[:, None, :], np.sin(th).astype(np.float64)[:, None, :]
    a, b = x[..., : d // 2].astype(np.float64), x[..., d // 2:].astype(np.float64)
    want = np.concatenate([a * c - b * s, a * s + b * c], -1)
    y = posenc.mrope_apply(x, f, pos, list(sections), mode=mode)
    assert np.all(np.abs(y - want) <= f32_bound(x, want, d, "half"))
    y2 = posenc.mrope_apply(x, f, pos, list(sections), mode=mode, threads=2)
    assert np.array_equal(y, y2)
    k = rng.uniform(-1, 1, (T, 1, d)).astype(np.float32)
    qo, ko = posenc.mrope_apply_qk(x, k, f, pos, list(sections), mode=mode, threads=2)
    assert np.array_equal(qo, y)
    assert np.array_equal(ko, posenc.mrope_apply(k, f, pos, list(sections), mode=mode))
    # 16-bit storage: the f32 rotation of the widened input, rounded to nearest even
    xb = ref.f32_to_bf16(x)
    yb = posenc.mrope_apply(xb, f, pos, list(sections), mode=mode)
    assert np.array_equal(yb, ref.f32_to_bf16(posenc.mrope_apply(ref.bf16_to_f32(xb), f, pos,
                                                                 list(sections), mode=mode)))
    xh = x.astype(np.float16)
    yh = posenc.mrope_apply(xh, f, pos, list(sections), mode=mode, threads=2)
    assert np.array_equal(yh, posenc.mrope_apply(xh.astype(np.float32), f, pos, list(sections),
                                                 mode=mode).astype(np.float16))
    # the f16 cache through mrope_cos_sin is the f64 one correctly rounded
    c16, _ = posenc.mrope_cos_sin(f, pos, list(sections), mode=mode, dtype="float16")
    c64, _ = posenc.mrope_cos_sin(f, pos, list(sections), mode=mode, dtype="float64")
    assert np.array_equal(c16, c64.astype(np.float16))
