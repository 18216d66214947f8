"""Property tests of the binding with Hypothesis (Debian's python3-hypothesis): arbitrary
shapes, strides, positions, frequencies, scaling parameters and output arguments. Each
call either raises a Python exception (ValueError, TypeError, MemoryError, posenc.Error)
and leaves every array untouched, or returns finite results that match the float64
reference (docs/RELIABILITY.md, Fuzzing).

`make test` runs the default profile (a few hundred examples, ~20 s); a longer run:

    HYPOTHESIS_PROFILE=long PYTHONPATH=build/python /usr/bin/python3 -m pytest -q \
        -p no:cacheprovider python/tests/test_hypothesis.py

No example database is written (database=None): runs leave nothing in the tree.
"""
import os

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")  # python3-hypothesis (setup-deps.sh python-test)
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import posenc  # noqa: E402
import reference as ref  # noqa: E402

_COMMON = dict(deadline=None, database=None, derandomize=False,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("default", max_examples=150, **_COMMON)
settings.register_profile("long", max_examples=5000, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

ERRORS = (ValueError, TypeError, MemoryError, OverflowError)
INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1

positions_st = st.one_of(
    st.integers(-50, 50),
    st.integers(INT64_MIN, INT64_MAX),
    st.sampled_from([INT64_MIN, INT64_MIN + 1, -1, 0, 1, 2 ** 31, 2 ** 53, INT64_MAX - 1, INT64_MAX]),
)
floats_any = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 1e-300, 1e300, 1e240, 1.01e240, 1e9, 1.01e9, 1e-9, 5e-324]),
)


def omega_of(f):
    return f.inv_freq.astype(np.longdouble) + f.inv_freq_lo.astype(np.longdouble)


@st.composite
def rope_case(draw):
    d = 2 * draw(st.integers(1, 8))
    D = d + 2 * draw(st.integers(0, 2))
    T = draw(st.integers(0, 6))
    H = draw(st.integers(1, 3))
    base = draw(st.one_of(st.just(10000.0), st.floats(1.0001, 1e6)))
    step_t = draw(st.integers(1, 3))
    x = draw(st.integers(0, 2 ** 32 - 1))
    rng = np.random.default_rng(x)
    full = rng.uniform(-2, 2, (T * step_t, H, D)).astype(np.float32)
    view = full[::step_t]  # strided tokens, contiguous rows
    explicit = draw(st.booleans())
    pos = np.array(draw(st.lists(positions_st, min_size=T, max_size=T)), dtype=np.int64) if explicit else None
    start = draw(st.integers(-1000, 1000)) if not explicit else 0
    layout = draw(st.sampled_from(["interleaved", "half"]))
    direction = draw(st.sampled_from(["forward", "inverse", "backward"]))
    return d, base, view, pos, start, layout, direction


@given(rope_case(), st.integers(1, 4))
def test_rope_apply_any_view_matches_reference(case, threads):
    d, base, x, pos, start, layout, direction = case
    f = posenc.freqs_default(d, base)
    before = x.copy()
    y = posenc.rope_apply(x, f, layout=layout, positions=pos, start=start, direction=direction,
                          threads=threads)
    assert np.array_equal(x, before)  # the input is not touched
    assert y.shape == x.shape and np.all(np.isfinite(y))
    p = pos if pos is not None else start + np.arange(x.shape[0], dtype=np.int64)
    # every pair keeps its norm (times A), at any position
    a_idx, b_idx = ref.pairs(x, d, layout)
    n0 = np.hypot(x[..., a_idx].astype(np.float64), x[..., b_idx].astype(np.float64))
    n1 = np.hypot(y[..., a_idx].astype(np.float64), y[..., b_idx].astype(np.float64))
    assert np.allclose(n1, f.attention_factor * n0, rtol=2e-6, atol=1e-6)
    # against the reference where both are accurate: |p w| < 2^40 (include/posenc.h;
    # the long double reference itself loses the angle near 2^63)
    if len(p) and np.max(np.abs(p.astype(np.float64))) * np.max(f.inv_freq) >= 2.0 ** 40:
        return
    want = ref.rope(x, omega_of(f), p, layout, f.attention_factor, direction)
    tol = ref.rope_tolerance(x, want, f.inv_freq, layout, f.attention_factor)
    assert np.all(np.abs(y.astype(np.float64) - want) <= tol)


@given(st.integers(0, 40), st.integers(0, 40), st.integers(1, 8), st.booleans())
def test_out_overlapping_the_input_is_refused_unless_same_view(a, b, n, same_object):
    """out= follows the library's rule: the same view is in place, any other sharing of
    memory is an error that leaves the buffer untouched."""
    buf = np.random.default_rng(a * 41 + b).uniform(-1, 1, (48, 4)).astype(np.float32)
    x = buf[a:a + n]
    out = x if same_object else buf[b:b + n]
    if out.shape != x.shape:
        return
    f = posenc.freqs_default(4)
    before = buf.copy()
    same_view = out.__array_interface__["data"][0] == x.__array_interface__["data"][0]
    if same_object or same_view or not np.shares_memory(x, out):
        want = posenc.rope_apply(x.copy(), f, start=3)
        posenc.rope_apply(x, f, start=3, out=out)
        assert np.allclose(out, want, atol=1e-6)
    else:
        with pytest.raises(ValueError):
            posenc.rope_apply(x, f, start=3, out=out)
        assert np.array_equal(buf, before)


@given(st.lists(floats_any, min_size=1, max_size=6), floats_any)
def test_hand_made_freqs_are_refused_or_give_finite_angles(inv, amp):
    try:
        f = posenc.Freqs(np.array(inv, dtype=np.float64), attention_factor=amp)
    except ERRORS:
        return
    c, s = posenc.rope_cos_sin(f, positions=np.array([INT64_MIN, -1, 0, 1, INT64_MAX], np.int64),
                               dtype=np.float64)
    assert np.all(np.abs(c) <= 1) and np.all(np.abs(s) <= 1)
    x = np.linspace(-1, 1, 3 * f.rotary_dim, dtype=np.float32).reshape(3, f.rotary_dim)
    for direction in ("forward", "inverse", "backward"):
        assert np.all(np.isfinite(posenc.rope_apply(x, f, start=INT64_MAX - 3, direction=direction)))


@given(st.sampled_from([s["name"] for s in posenc.scaling_schemes()]),
       st.integers(1, 16), floats_any, floats_any, st.integers(-2, 10 ** 6),
       st.integers(-2, 10 ** 6), floats_any, floats_any)
def test_scaling_parameters_are_refused_or_give_finite_frequencies(
        kind, pairs, base, factor, l0, seq, beta_fast, attention_factor):
    head_dim = 2 * pairs
    lists = np.full(pairs, 1.5)
    kw = dict(base=base, factor=factor, original_max_position=l0, max_position=l0,
              seq_len=seq, beta_fast=beta_fast, attention_factor=attention_factor)
    if kind == "longrope":
        kw.update(short_factor=lists, long_factor=lists)
    if kind == "explicit":
        kw.update(divisors=lists)
    try:
        f = posenc.freqs_from_scaling(kind, head_dim, **kw)
    except ERRORS:
        return
    w = f.inv_freq
    assert np.all(np.isfinite(w)) and np.all(w >= 0) and np.all(w <= 1e240)
    assert 1e-9 <= f.attention_factor <= 1e9
    c, s = posenc.rope_cos_sin(f, positions=np.array([INT64_MIN, INT64_MAX, 12345], np.int64))
    assert np.all(np.isfinite(c)) and np.all(np.isfinite(s))


@given(st.lists(st.integers(0, 2 ** 64 - 1), min_size=1, max_size=8))
def test_unsigned_positions_above_int64_are_refused(values):
    f = posenc.freqs_default(4)
    pos = np.array(values, dtype=np.uint64)
    if max(values) > INT64_MAX:
        with pytest.raises(ValueError, match="above INT64_MAX"):
            posenc.rope_cos_sin(f, positions=pos)
    else:
        c, _ = posenc.rope_cos_sin(f, positions=pos, dtype=np.float64)
        want, _ = posenc.rope_cos_sin(f, positions=pos.astype(np.int64), dtype=np.float64)
        assert np.array_equal(c, want)


@given(st.integers(30, 56), st.sampled_from(["rope", "qk", "mrope"]))
def test_broadcast_arrays_claiming_huge_token_counts_raise(log2_tokens, call):
    """A broadcast view claims 2^k tokens of one row: the output cannot be allocated (or
    the view is refused): a Python exception, never a crash."""
    f = posenc.freqs_default(8)
    x = np.broadcast_to(np.ones(8, np.float32), (2 ** log2_tokens, 8))
    with pytest.raises((MemoryError, ValueError)):
        if call == "rope":
            posenc.rope_apply(x, f)
        elif call == "qk":
            posenc.rope_apply_qk(x, x, f)
        else:
            posenc.mrope_apply(x, f, np.zeros((4, 3), np.int64), [2, 1, 1])


@given(st.integers(0, 30), st.integers(0, 30), st.integers(1, 6))
def test_qk_outputs_aliasing_are_refused(qa, kb, n):
    buf = np.random.default_rng(qa + 97 * kb).uniform(-1, 1, (40, 4)).astype(np.float32)
    f = posenc.freqs_default(4)
    q, k = buf[0:n], buf[32:32 + n].copy()
    q_out, k_out = buf[qa:qa + n], buf[kb:kb + n]
    if q_out.shape[0] != n or k_out.shape[0] != n:
        return
    before = buf.copy()
    clash = (np.shares_memory(q_out, k_out) or
             (np.shares_memory(q_out, q) and qa != 0) or np.shares_memory(k_out, q))
    if clash:
        with pytest.raises(ValueError):
            posenc.rope_apply_qk(q, k, f, q_out=q_out, k_out=k_out)
        assert np.array_equal(buf, before)
    else:
        posenc.rope_apply_qk(q, k, f, q_out=q_out, k_out=k_out)
        assert np.all(np.isfinite(buf))


@given(st.integers(1, 6), st.lists(positions_st, min_size=3, max_size=3),
       st.integers(0, 4), st.integers(0, 4))
def test_mrope_any_positions_finite(tokens, p3, s_h, s_w):
    f = posenc.freqs_default(16)
    sections = [8 - s_h - s_w, s_h, s_w]
    pos = np.tile(np.array(p3, np.int64), (tokens, 1))
    x = np.linspace(-1, 1, tokens * 2 * 16, dtype=np.float32).reshape(tokens, 2, 16)
    y = posenc.mrope_apply(x, f, pos, sections)
    assert np.all(np.isfinite(y))
    # rotation keeps each pair's norm
    n0 = np.hypot(x[..., :8], x[..., 8:])
    n1 = np.hypot(y[..., :8], y[..., 8:])
    assert np.allclose(n0, n1, rtol=1e-5, atol=1e-6)
