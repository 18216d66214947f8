"""rope_shift through the binding: keys rotated at p and shifted by delta (constant or per
token, either sign, up to 2^31) against the float64/longdouble reference rotation at
p + delta; the shift alone within one rotation's bound; in place, out=, batch axes,
bfloat16 storage, threads, and rejected calls that leave the keys untouched."""
import numpy as np
import pytest

import posenc
import reference as ref


def omega_of(f):
    return f.inv_freq.astype(np.longdouble) + f.inv_freq_lo.astype(np.longdouble)


# shift(rotate(x, p), delta) vs rotate(x, p + delta): the cached key holds one rotation's
# rounding (<= 2^-23 (|a| + |b|) per element, reference.rope_tolerance), carried through
# the shift without growth in pair norm (sqrt2), plus the shift's own rounding (the same
# bound on elements of pairs of norm <= sqrt2 (|a| + |b|)): 2^-23 (1 + 2) sqrt2 (|a|+|b|).
def shifted_tolerance(x, omega, layout):
    tol = ref.rope_tolerance(x, x, omega, layout)
    return 3 * np.sqrt(2.0) * (tol - 1e-14) + 1e-12


@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize("per_token", [False, True])
def test_shift_matches_rotation_at_new_position(rng, layout, per_token):
    x = rng.uniform(-1, 1, (6, 3, 32)).astype(np.float32)
    f = posenc.freqs_default(32, 500000.0)
    pos = np.array([0, 7, -3, 2**20, 2**31 - 1, 2**31], dtype=np.int64)
    delta = (np.array([5, -7, 3, -(2**20), -(2**31) + 11, 2**30], dtype=np.int64)
             if per_token else -123456789)
    k = posenc.rope_apply(x, f, layout=layout, positions=pos)
    cached = k.copy()
    out = posenc.rope_shift(k, f, delta, layout=layout, out=k)
    assert out is k
    want = ref.rope(x, omega_of(f), pos + delta, layout)
    err = np.abs(k.astype(np.float64) - want)
    assert np.all(err <= shifted_tolerance(x, f.inv_freq, layout)), err.max()
    # one rounding: the shift alone is one rotation of the cached key
    alone = ref.rope(cached, omega_of(f), np.broadcast_to(delta, pos.shape), layout)
    tol = ref.rope_tolerance(cached, alone, f.inv_freq, layout)
    assert np.all(np.abs(k.astype(np.float64) - alone) <= tol)


def test_shift_out_of_place_threads_and_batch(rng):
    f = posenc.freqs_default(64, 10000.0)
    x = rng.uniform(-1, 1, (2, 300, 4, 64)).astype(np.float32)  # (B, T, H, D)
    delta = rng.integers(-(2**30), 2**30, 300)
    y1 = posenc.rope_shift(x, f, delta, token_axis=1)
    y4 = posenc.rope_shift(x, f, delta, token_axis=1, threads=4)
    assert np.array_equal(y1, y4)
    for b in range(2):
        want = ref.rope(x[b], omega_of(f), delta, "half")
        tol = ref.rope_tolerance(x[b], want, f.inv_freq, "half")
        assert np.all(np.abs(y1[b] - want) <= tol)


def test_shift_bfloat16_cache(rng):
    f = posenc.freqs_default(16, 10000.0)
    x = ref.bf16_to_f32(ref.f32_to_bf16(rng.uniform(-1, 1, (5, 2, 16)).astype(np.float32)))
    k = ref.f32_to_bf16(x)
    posenc.rope_shift(k, f, -40, out=k)
    want = ref.rope(x, omega_of(f), np.full(5, -40), "half")
    # half a bf16 ulp (2^-8 relative, values below 2) on top of the f32 bound
    tol = 2.0**-8 * np.abs(want) + ref.rope_tolerance(x, want, f.inv_freq, "half") + 1e-7
    assert np.all(np.abs(ref.bf16_to_f32(k) - want) <= tol)


def test_shift_rejects_without_writing(rng):
    f = posenc.freqs_default(16, 10000.0)
    k = rng.uniform(-1, 1, (4, 16)).astype(np.float32)
    before = k.copy()
    with pytest.raises(ValueError, match="delta has 3 entries, want one per token"):
        posenc.rope_shift(k, f, [1, 2, 3], out=k)
    with pytest.raises(ValueError, match="overlaps x"):
        posenc.rope_shift(k[:3], f, 1, out=k[1:])
    with pytest.raises(OverflowError):
        posenc.rope_shift(k, f, 2**63, out=k)
    assert np.array_equal(k, before)
    posenc.rope_shift(k, f, np.int64(0), out=k)
    assert np.array_equal(k, before)  # delta 0: angle 0, cos 1, sin 0 exactly


@pytest.mark.parametrize("layout", ["interleaved", "half"])
def test_rebase_matches_rotation_with_new_freqs(rng, layout):
    x = rng.uniform(-1, 1, (5, 2, 32)).astype(np.float32)
    old = posenc.freqs_default(32, 10000.0)
    new = posenc.freqs_default(32, 80000.0)
    pos = np.array([0, 3, 4096, 2**24, 2**31], dtype=np.int64)
    k = posenc.rope_apply(x, old, layout=layout, positions=pos)
    cached = k.copy()
    posenc.rope_rebase(k, old, new, layout=layout, positions=pos, out=k)
    want = ref.rope(x, omega_of(new), pos, layout)
    assert np.all(np.abs(k - want) <= shifted_tolerance(x, new.inv_freq, layout))
    # the rebase alone: one rotation of the cached key by p (w_new - w_old)
    tdiff = omega_of(new) - omega_of(old)
    alone = ref.rope(cached, tdiff, pos, layout)
    tol = ref.rope_tolerance(cached, alone, new.inv_freq, layout)
    assert np.all(np.abs(k - alone) <= tol)
    with pytest.raises(posenc.Error, match="new_freqs rotary_dim=16 differs"):
        posenc.rope_rebase(k, old, posenc.freqs_default(16, 1e4), positions=pos, out=k)
