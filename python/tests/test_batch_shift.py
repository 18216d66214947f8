"""rope_shift on batch axes (python/py_batch.c): an int or (T,) deltas for every element,
(B, T) or (B, 1) per element, both token axes, strides that fold (one library call) and
strides that do not (every other token of a cache, every other batch element: one call per
element on strided views, no copy). Each batched result equals one unbatched shift per
element bit for bit and the float64 reference (a shift is the rotation by delta * omega,
python/tests/test_shift.py); in place the tokens between the view's are untouched; torch
tensors are shifted in place; refusals name the argument and write nothing."""
import numpy as np
import pytest

import posenc
import reference as ref

D = 32
B, T, H = 3, 5, 2


def omega_of(f):
    return f.inv_freq.astype(np.longdouble) + f.inv_freq_lo.astype(np.longdouble)


def deltas(kind, rng):
    """(the delta argument, element b's unbatched delta, element b's (T,) deltas)."""
    if kind == "int":
        return -123456789, lambda b: -123456789, lambda b: np.full(T, -123456789)
    if kind == "shared":
        d = rng.integers(-(2**31), 2**31, T)
        return d, lambda b: d, lambda b: d
    if kind == "per_token":
        d = rng.integers(-(2**31), 2**31, (B, T))
        return d, lambda b: d[b], lambda b: d[b]
    d = rng.integers(-(2**31), 2**31, (B, 1))  # "per_element": one delta per element
    return d, lambda b: int(d[b, 0]), lambda b: np.full(T, d[b, 0])


def cache(rng, token_axis, stride):
    """A bigger cache and the view of it to shift: x (B, T, H, D) (token_axis=1) or
    (B, H, T, D) (token_axis=2), C-contiguous (folds), every other token, or every other
    batch element (neither fold fits: one call per element)."""
    nb, nt = (2 * B if stride == "batch_step" else B), (2 * T if stride == "token_step" else T)
    shape = (nb, nt, H, D) if token_axis == 1 else (nb, H, nt, D)
    big = rng.uniform(-1, 1, shape).astype(np.float32)
    if stride == "token_step":
        return big, (lambda a: a[:, ::2]) if token_axis == 1 else (lambda a: a[:, :, ::2])
    if stride == "batch_step":
        return big, lambda a: a[::2]
    return big, lambda a: a


def element(x, b, token_axis):
    """Element b as a contiguous (T, H, D) array."""
    e = x[b] if token_axis == 1 else x[b].transpose(1, 0, 2)
    return np.ascontiguousarray(e)


@pytest.mark.parametrize("stride", ["contiguous", "token_step", "batch_step"])
@pytest.mark.parametrize("token_axis", [1, 2])
@pytest.mark.parametrize("kind", ["int", "shared", "per_token", "per_element"])
def test_batched_shift_equals_per_element_and_reference(rng, kind, token_axis, stride):
    f = posenc.freqs_default(D, 500000.0)
    layout = "interleaved" if token_axis == 1 else "half"
    delta, unbatched, per_token = deltas(kind, rng)
    big, view = cache(rng, token_axis, stride)
    x = view(big)
    y = posenc.rope_shift(x, f, delta, layout=layout, token_axis=token_axis)
    assert y.shape == x.shape
    for b in range(B):
        xb = element(x, b, token_axis)
        assert np.array_equal(element(y, b, token_axis), posenc.rope_shift(xb, f, unbatched(b), layout=layout))
        want = ref.rope(xb, omega_of(f), per_token(b), layout)
        tol = ref.rope_tolerance(xb, want, f.inv_freq, layout)
        assert np.all(np.abs(element(y, b, token_axis) - want) <= tol)
    # an out= array laid out differently (C order of its own): the same bits
    o = np.empty_like(np.ascontiguousarray(x))
    posenc.rope_shift(x, f, delta, layout=layout, token_axis=token_axis, out=o)
    assert np.array_equal(o, y)
    # in place on the view of the cache: the same bits, everything outside the view untouched
    before = big.copy()
    v = view(big)
    assert posenc.rope_shift(v, f, delta, layout=layout, token_axis=token_axis, out=v) is v
    assert np.array_equal(v, y)
    outside = np.ones(big.shape, bool)
    view(outside)[...] = False
    assert np.array_equal(big[outside], before[outside])


def test_threads_do_not_change_the_bits(rng):
    f = posenc.freqs_default(D)
    big = rng.uniform(-1, 1, (2, 2 * 40, 4, D)).astype(np.float32)
    x = big[:, ::2]
    d = rng.integers(-(2**30), 2**30, (2, 40))
    assert np.array_equal(posenc.rope_shift(x, f, d, token_axis=1),
                          posenc.rope_shift(x, f, d, token_axis=1, threads=4))


def test_more_batch_axes_fold(rng):
    # (A, B, H, T, D) C-contiguous folds A*B*H into heads; (A, B, T, H, D) into tokens
    f = posenc.freqs_default(D)
    x = rng.uniform(-1, 1, (2, B, H, T, D)).astype(np.float32)
    d = rng.integers(-1000, 1000, T)
    for delta, row in ((d, d), (77, 77)):
        y = posenc.rope_shift(x, f, delta, token_axis=3)
        y2 = posenc.rope_shift(np.ascontiguousarray(x.transpose(0, 1, 3, 2, 4)), f, delta, token_axis=2)
        for a in range(2):
            for b in range(B):
                e = posenc.rope_shift(np.ascontiguousarray(x[a, b].transpose(1, 0, 2)), f, row)
                assert np.array_equal(y[a, b].transpose(1, 0, 2), e)
                assert np.array_equal(y2[a, b], e)


def test_refusals_name_the_argument_and_write_nothing(rng):
    f = posenc.freqs_default(16)
    big = rng.uniform(-1, 1, (B, 2 * 4, H, 16)).astype(np.float32)
    before = big.copy()
    x = big[:, ::2]  # (3, 4, 2, 16), every other token
    cases = [
        (ValueError, r"delta has shape \(3, 2\), want \(3, 4\) per batch element and token or \(3, 1\)",
         dict(delta=np.zeros((3, 2), np.int64), token_axis=1)),
        (ValueError, r"delta has shape \(2, 4\)", dict(delta=np.zeros((2, 4), np.int64), token_axis=1)),
        (ValueError, r"delta has 5 entries, want one per token \(4\)", dict(delta=np.zeros(5, np.int64), token_axis=1)),
        (ValueError, r"delta", dict(delta=np.zeros((3, 4, 1), np.int64), token_axis=1)),
        (TypeError, r"delta must hold integers", dict(delta=np.zeros((3, 4)), token_axis=1)),
        (OverflowError, r"delta does not fit in int64", dict(delta=2**63, token_axis=1)),
        (TypeError, r"", dict(delta="7", token_axis=1)),
        (ValueError, r"token_axis", dict(delta=1, token_axis=3)),
        (ValueError, r"x has 4 dimensions: say which axis", dict(delta=1)),
    ]
    for exc, msg, kw in cases:
        with pytest.raises(exc, match=msg):
            posenc.rope_shift(x, f, kw.pop("delta"), out=x, **kw)
    with pytest.raises(ValueError, match=r"delta per batch element need x as \(batch, tokens"):
        posenc.rope_shift(big[0], f, np.zeros((1, 8), np.int64), out=big[0])
    with pytest.raises(ValueError, match="overlaps x"):
        posenc.rope_shift(x, f, 1, token_axis=1, out=big[:, 1:5])  # tokens 2 and 4 are x's too
    assert np.array_equal(big, before)


def test_deltas_inside_the_output_are_refused_before_any_write(rng):
    # (B, T) deltas that are the bytes of element 2's first token: one call per element would
    # shift elements 0 and 1 before the library saw element 2's overlap
    f = posenc.freqs_default(16)
    raw = np.zeros(B * 8 * H * 16, np.float32)
    x4 = raw.reshape(B, 8, H, 16)
    x4[...] = rng.uniform(-1, 1, x4.shape)
    x = x4[:, ::2]
    first = (2 * 8 * H * 16) // 2  # element 2, token 0, as int64 index
    d = raw.view(np.int64)[first:first + B * 4].reshape(B, 4)
    before = raw.copy()
    with pytest.raises(ValueError, match=r"delta overlaps out"):
        posenc.rope_shift(x, f, d, token_axis=1, out=x)
    assert np.array_equal(raw.view(np.uint32), before.view(np.uint32))


def test_torch_tensors_shift_in_place(rng):
    torch = pytest.importorskip("torch", reason="python3-torch is not installed (apt-get install python3-torch)")
    f = posenc.freqs_default(D)
    for dtype in (torch.float32, torch.bfloat16):
        big = torch.from_numpy(rng.uniform(-1, 1, (B, H, 2 * T, D)).astype(np.float32)).to(dtype)
        x = big[:, :, ::2]  # every other token of a (B, H, T_max, D) cache
        d = rng.integers(-(2**20), 2**20, (B, T))

        def bits(t):
            return t.view(torch.int16).numpy().view(np.uint16) if t.dtype == torch.bfloat16 else t.numpy()

        for delta in (torch.from_numpy(d), torch.from_numpy(d[:, :1].copy()), torch.from_numpy(d[0].copy()), -5):
            want = posenc.rope_shift(bits(x), f, delta.numpy() if hasattr(delta, "numpy") else delta,
                                     token_axis=2)
            odd = bits(big[:, :, 1::2]).copy()
            ptr = big.data_ptr()
            assert posenc.rope_shift(x, f, delta, token_axis=2, out=x) is x
            assert big.data_ptr() == ptr
            assert np.array_equal(bits(x), want)
            assert np.array_equal(bits(big[:, :, 1::2]), odd)
