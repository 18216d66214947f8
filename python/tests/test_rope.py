"""RoPE through the binding against the float64 reference: layouts, partial rotary,
positions, directions, magnitude, strided views, in place and out=, f16/bf16 storage,
threads, the q/k call, cos/sin caches, the layout permutation and M-RoPE."""
import threading

import numpy as np
import pytest

import posenc
import reference as ref


def omega_of(f):
    """The exact double-double frequencies a Freqs holds, as longdouble."""
    return f.inv_freq.astype(np.longdouble) + f.inv_freq_lo.astype(np.longdouble)


def check_rope(out, x, f, positions, layout, direction="forward"):
    want = ref.rope(x, omega_of(f), positions, layout, f.attention_factor, direction)
    tol = ref.rope_tolerance(x, want, f.inv_freq, layout, f.attention_factor)
    err = np.abs(out.astype(np.float64) - want)
    assert np.all(err <= tol), f"max error {err.max():.3g}, worst excess {(err - tol).max():.3g}"


@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize("rotary_dim", [16, 10])
def test_rope_matches_reference(rng, layout, rotary_dim):
    x = rng.uniform(-1, 1, (7, 3, 16)).astype(np.float32)
    f = posenc.freqs_default(rotary_dim, 10000.0)
    y = posenc.rope_apply(x, f, layout=layout, start=5)
    assert y.dtype == np.float32 and y.shape == x.shape
    check_rope(y, x, f, np.arange(5, 12), layout)
    # partial rotary: the tail passes through bit for bit
    assert np.array_equal(y[..., rotary_dim:], x[..., rotary_dim:])


def test_rope_layouts_differ_by_the_permutation(rng):
    """Same operation, elements permuted: x_half[perm] = x_interleaved."""
    x = rng.uniform(-1, 1, (5, 12)).astype(np.float32)
    f = posenc.freqs_default(8)
    perm = posenc.rope_layout_permutation(12, 8)
    assert perm.dtype == np.int64 and list(perm[:4]) == [0, 4, 1, 5] and list(perm[8:]) == [8, 9, 10, 11]
    xh = np.empty_like(x)
    xh[:, perm] = x
    yi = posenc.rope_apply(x, f, layout="interleaved")
    yh = posenc.rope_apply(xh, f, layout="half")
    assert np.array_equal(yh[:, perm], yi)


def test_rope_positions_large_and_negative(rng):
    x = rng.uniform(-1, 1, (6, 2, 32)).astype(np.float32)
    pos = np.array([0, -3, 131072, 10**6, 2**31 - 1, -(2**31) + 1])
    f = posenc.freqs_default(32, 500000.0)
    for layout in ("interleaved", "half"):
        check_rope(posenc.rope_apply(x, f, layout=layout, positions=pos), x, f, pos, layout)
    # a list and a step-1 range are accepted as positions too
    y1 = posenc.rope_apply(x, f, positions=list(range(3, 9)))
    y2 = posenc.rope_apply(x, f, positions=range(3, 9))
    y3 = posenc.rope_apply(x, f, start=3)
    assert np.array_equal(y1, y2) and np.array_equal(y2, y3)


def test_rope_directions_and_magnitude(rng):
    x = rng.uniform(-1, 1, (4, 64)).astype(np.float32)
    f = posenc.freqs_from_scaling("yarn", 64, factor=4.0, original_max_position=4096)
    assert f.attention_factor > 1.0  # mscale(4) = 0.1 ln 4 + 1
    np.testing.assert_allclose(f.attention_factor, 0.1 * np.log(4.0) + 1.0, rtol=1e-15)
    pos = np.array([1, 100, 5000, 70000])
    for direction in ("forward", "inverse", "backward"):
        y = posenc.rope_apply(x, f, positions=pos, direction=direction)
        check_rope(y, x, f, pos, "half", direction)
    back = posenc.rope_apply(posenc.rope_apply(x, f, positions=pos), f, positions=pos, direction="inverse")
    np.testing.assert_allclose(back, x, atol=1e-6)


def test_rope_strided_views_without_copies(rng):
    """(heads, tokens, D) transposed, and q/k slices of a fused qkv buffer, in place."""
    T, H, D = 6, 4, 16
    f = posenc.freqs_default(D)
    x = rng.uniform(-1, 1, (H, T, D)).astype(np.float32)
    xt = x.transpose(1, 0, 2)  # (tokens, heads, D), not contiguous
    want = posenc.rope_apply(np.ascontiguousarray(xt), f)
    got = posenc.rope_apply(xt, f)
    assert np.array_equal(got, want)
    qkv = rng.uniform(-1, 1, (T, 3 * H * D)).astype(np.float32)
    orig = qkv.copy()
    q = qkv[:, : H * D].reshape(T, H, D)
    k = qkv[:, H * D : 2 * H * D].reshape(T, H, D)
    assert not q.flags.c_contiguous
    r = posenc.rope_apply(q, f, out=q)
    assert r is q
    posenc.rope_apply_qk(q, k, f, q_out=q, k_out=k, direction="inverse")  # undo q, rotate k back
    np.testing.assert_allclose(qkv[:, : H * D], orig[:, : H * D], atol=1e-6)
    assert np.array_equal(qkv[:, 2 * H * D :], orig[:, 2 * H * D :])  # v untouched


def test_rope_out_argument_and_in_place(rng):
    x = rng.uniform(-1, 1, (3, 8)).astype(np.float32)
    f = posenc.freqs_default(8)
    want = posenc.rope_apply(x, f)
    out = np.zeros_like(x)
    assert posenc.rope_apply(x, f, out=out) is out and np.array_equal(out, want)
    xc = x.copy()
    posenc.rope_apply(xc, f, out=xc)
    assert np.array_equal(xc, want)
    with pytest.raises(ValueError, match="overlaps x"):
        posenc.rope_apply(x[:2], f, out=x[1:])
    with pytest.raises(ValueError, match=r"out has shape \(3, 4\), want \(3, 8\)"):
        posenc.rope_apply(x, f, out=np.zeros((3, 4), np.float32))
    with pytest.raises(TypeError, match="out: dtype float64 is not accepted"):
        posenc.rope_apply(x, f, out=np.zeros((3, 8)))
    ro = np.zeros_like(x)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        posenc.rope_apply(x, f, out=ro)


def test_rope_argument_errors(rng):
    x = rng.uniform(-1, 1, (3, 8)).astype(np.float32)
    f = posenc.freqs_default(8)
    with pytest.raises(TypeError, match="x: dtype float64 is not accepted"):
        posenc.rope_apply(x.astype(np.float64), f)
    with pytest.raises(TypeError, match="dtype int32"):
        posenc.rope_apply(x.astype(np.int32), f)
    with pytest.raises(ValueError, match="contiguous along its last axis"):
        posenc.rope_apply(x[:, ::2], posenc.freqs_default(4))
    with pytest.raises(ValueError, match="must have 2 to 8 dimensions, got 1"):
        posenc.rope_apply(x[0], f)
    with pytest.raises(TypeError, match="expected a numpy array"):
        posenc.rope_apply([[1.0] * 8], f)
    with pytest.raises(TypeError, match="freqs must be a posenc.Freqs"):
        posenc.rope_apply(x, [1.0])
    with pytest.raises(ValueError, match="layout='neox' is not one of 'interleaved', 'half'"):
        posenc.rope_apply(x, f, layout="neox")
    with pytest.raises(ValueError, match="positions has 2 entries, want 3"):
        posenc.rope_apply(x, f, positions=[1, 2])
    with pytest.raises(ValueError, match="give start or positions"):
        posenc.rope_apply(x, f, positions=[1, 2, 3], start=4)
    with pytest.raises(TypeError, match="positions must hold integers"):
        posenc.rope_apply(x, f, positions=[0.5, 1, 2])
    with pytest.raises(posenc.Error, match=r"rotary_dim=16 exceeds head_dim=8") as e:
        posenc.rope_apply(x, posenc.freqs_default(16))
    assert e.value.status == -2  # PE_ERR_DIM
    with pytest.raises(TypeError, match="unexpected keyword|invalid keyword"):
        posenc.rope_apply(x, f, layot="half")


def test_rope_float16_and_bfloat16_storage(rng):
    x32 = rng.uniform(-1, 1, (5, 2, 16)).astype(np.float32)
    f = posenc.freqs_default(16)
    pos = np.array([0, 3, 999, 12345, 7])
    # float16: widened, rotated in f32, rounded once to nearest: within 1 ulp of f16
    x16 = x32.astype(np.float16)
    y16 = posenc.rope_apply(x16, f, positions=pos)
    assert y16.dtype == np.float16
    want = ref.rope(x16.astype(np.float64), omega_of(f), pos, "half")
    ulp16 = np.spacing(np.abs(want).astype(np.float16)).astype(np.float64)
    assert np.all(np.abs(y16.astype(np.float64) - want) <= ulp16 + 1e-7)
    # bfloat16 as uint16 views
    xb = ref.f32_to_bf16(x32)
    yb = posenc.rope_apply(xb, f, positions=pos)
    assert yb.dtype == np.uint16
    want = ref.rope(ref.bf16_to_f32(xb).astype(np.float64), omega_of(f), pos, "half")
    got = ref.bf16_to_f32(yb).astype(np.float64)
    assert np.all(np.abs(got - want) <= 2.0**-8 * np.abs(want) + 1e-7)


def test_rope_threads_give_identical_results(rng):
    x = rng.uniform(-1, 1, (512, 8, 64)).astype(np.float32)
    f = posenc.freqs_default(64)
    one = posenc.rope_apply(x, f, start=100)
    four = posenc.rope_apply(x, f, start=100, threads=4)
    assert np.array_equal(one, four)


def test_rope_releases_the_gil_and_is_thread_safe(rng):
    """Large calls from several Python threads at once give the single-thread result."""
    x = rng.uniform(-1, 1, (256, 8, 64)).astype(np.float32)
    f = posenc.freqs_default(64)
    want = posenc.rope_apply(x, f, start=7)
    results = [None] * 4

    def work(i):
        results[i] = posenc.rope_apply(x, f, start=7)

    ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert all(np.array_equal(r, want) for r in results)


def test_rope_apply_qk_equals_two_calls(rng):
    q = rng.uniform(-1, 1, (6, 8, 32)).astype(np.float32)
    k = rng.uniform(-1, 1, (6, 2, 32)).astype(np.float32)
    f = posenc.freqs_default(32)
    qo, ko = posenc.rope_apply_qk(q, k, f, layout="interleaved", start=40)
    assert np.array_equal(qo, posenc.rope_apply(q, f, layout="interleaved", start=40))
    assert np.array_equal(ko, posenc.rope_apply(k, f, layout="interleaved", start=40))
    with pytest.raises(ValueError, match="overlap"):
        posenc.rope_apply_qk(q, q, f, q_out=q, k_out=q)


def test_rope_cos_sin(rng):
    f = posenc.freqs_default(16, 10000.0)
    pos = np.array([0, 1, -5, 10**6])
    c, s = posenc.rope_cos_sin(f, positions=pos, dtype=np.float64)
    # the library's stated accuracy: within 4e-16 of the exact cos/sin for |p w| < 2^40
    ec, es = ref.exact_cos_sin(pos, f.inv_freq, f.inv_freq_lo)
    np.testing.assert_allclose(c, ec, rtol=0, atol=4e-16)
    np.testing.assert_allclose(s, es, rtol=0, atol=4e-16)
    c32, s32 = posenc.rope_cos_sin(f, 4, start=2)
    assert c32.dtype == np.float32 and c32.shape == (4, 8)
    c64, _ = posenc.rope_cos_sin(f, 4, start=2, dtype="float64")
    assert np.array_equal(c32, c64.astype(np.float32))
    with pytest.raises(ValueError, match="give positions"):
        posenc.rope_cos_sin(f)


def test_mrope(rng):
    T, D = 5, 16
    x = rng.uniform(-1, 1, (T, 2, D)).astype(np.float32)
    f = posenc.freqs_default(D, 1e6)
    axes = posenc.mrope_slot_axes(D, [2, 3, 3], "blocked")
    assert axes == [0, 0, 1, 1, 1, 2, 2, 2]
    assert posenc.mrope_slot_axes(16, [4, 2, 2], mode="interleaved") == [0, 1, 2, 0, 1, 2, 0, 0]
    # text tokens (t = h = w) rotate exactly as plain RoPE
    p = np.array([3, 4, 5, 6, 7])
    same = np.stack([p, p, p], axis=1)
    y = posenc.mrope_apply(x, f, same, [2, 3, 3])
    assert np.array_equal(y, posenc.rope_apply(x, f, positions=p))
    # vision tokens: slot j takes its angle from axis axes[j]
    pos3 = rng.integers(0, 50, (T, 3))
    y = posenc.mrope_apply(x, f, pos3, [2, 3, 3], layout="half")
    om = omega_of(f)
    for t in range(T):
        angle_pos = pos3[t, axes]  # per slot
        theta = angle_pos.astype(np.longdouble) * om
        a, b = x[t, :, :8].astype(np.float64), x[t, :, 8:].astype(np.float64)
        c, s = np.cos(theta).astype(np.float64), np.sin(theta).astype(np.float64)
        np.testing.assert_allclose(y[t, :, :8], a * c - b * s, atol=3e-7)
        np.testing.assert_allclose(y[t, :, 8:], a * s + b * c, atol=3e-7)
    c, s = posenc.mrope_cos_sin(f, pos3, [2, 3, 3], dtype="float64")
    assert c.shape == (T, 8)
    np.testing.assert_allclose(c[1], np.cos(pos3[1, axes] * f.inv_freq), atol=1e-12)
    with pytest.raises(ValueError, match=r"positions has shape \(5, 2\), want \(5, 3\)"):
        posenc.mrope_apply(x, f, pos3[:, :2], [2, 3, 3])
    with pytest.raises(posenc.Error, match="section"):
        posenc.mrope_apply(x, f, pos3, [2, 3, 4])
