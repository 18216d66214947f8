"""Additive encodings and learned tables against numpy float64 references."""
import numpy as np
import pytest

import posenc
import reference as ref


def test_sinusoidal_golden_value_and_reference():
    row = posenc.encode("sinusoidal", [7], 4, dtype="float64")[0]
    np.testing.assert_allclose(row, [np.sin(7), np.cos(7), np.sin(0.07), np.cos(0.07)], rtol=0, atol=1e-15)
    assert np.round(row, 5).tolist() == [0.65699, 0.7539, 0.06994, 0.99755]
    pos = np.array([0, 1, 5, 99, 4096, -3])
    for layout in ("interleaved", "concatenated"):
        for conv in ("paper", "t2t"):
            got = posenc.encode("sinusoidal", pos, 64, layout=layout, convention=conv, dtype=np.float64)
            want = ref.sinusoidal(pos, 64, layout=layout, convention=conv)
            # float64 references form p*w in double too: both within a few ulps of the angle
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    f32 = posenc.encode("sinusoidal", range(100), 64)
    assert f32.dtype == np.float32 and f32.shape == (100, 64)
    np.testing.assert_allclose(f32, ref.sinusoidal(np.arange(100), 64), rtol=0, atol=6e-8)


def test_raw_normalized_binary():
    got = posenc.encode("raw", range(-2, 2), 3, scale=0.5, dtype="float64")
    assert np.array_equal(got, np.repeat(0.5 * np.arange(-2, 2)[:, None], 3, axis=1))
    got = posenc.encode("normalized", [0, 2, 4], 2, length=5, dtype="float64")
    assert np.array_equal(got, [[0, 0], [0.5, 0.5], [1, 1]])
    assert posenc.binary_nbits(8) == 3 and posenc.binary_nbits(9) == 4 and posenc.binary_nbits(1) == 1
    got = posenc.encode("binary", range(8), 5, length=8)
    assert np.array_equal(got, ref.binary(range(8), 8, 5))
    with pytest.raises(posenc.Error, match=r"position 9 .*outside \[0, length=4\)"):
        posenc.encode("normalized", [1, 9], 2, length=4)
    with pytest.raises(posenc.Error, match="dim=5 must be even"):
        posenc.encode("sinusoidal", [1], 5)
    with pytest.raises(ValueError, match="scheme='cosine' is not one of"):
        posenc.encode("cosine", [1], 4)


def test_encode_out_argument():
    out = np.full((3, 8), np.nan, dtype=np.float64)
    r = posenc.encode("sinusoidal", range(3), 8, dtype="float64", out=out)
    assert r is out and not np.isnan(out).any()
    with pytest.raises(TypeError, match="out: dtype float32 is not accepted"):
        posenc.encode("sinusoidal", range(3), 8, dtype="float64", out=np.zeros((3, 8), np.float32))
    before = np.zeros((3, 5), np.float32)
    with pytest.raises(posenc.Error):
        posenc.encode("sinusoidal", range(3), 5, out=before)
    assert not before.any()  # a rejected call leaves the output untouched


def test_shift_matrix_moves_encodings():
    dim, k = 32, 5
    M = posenc.shift_matrix(dim, k)
    pe = ref.sinusoidal(np.arange(50), dim)
    np.testing.assert_allclose(M @ pe[10], pe[15], atol=1e-12)
    np.testing.assert_allclose(posenc.shift_apply(pe[10], k), pe[15], atol=1e-12)
    v = pe[3].copy()
    posenc.shift_apply(v, k, out=v)  # in place
    np.testing.assert_allclose(v, pe[8], atol=1e-12)
    Mc = posenc.shift_matrix(dim, k, layout="concatenated")
    pc = ref.sinusoidal(np.arange(20), dim, layout="concatenated")
    np.testing.assert_allclose(Mc @ pc[2], pc[7], atol=1e-12)
    w = posenc.sinusoidal_frequency(dim, 3)
    assert w == pytest.approx(10000.0 ** (-6 / dim), rel=1e-15)


def test_learned_table_forward_backward_sgd(tmp_path):
    t = posenc.LearnedTable(16, 4, seed=42)
    W = t.weights
    assert W.shape == (16, 4) and W.dtype == np.float32
    assert abs(W.std() - 0.02) < 0.01  # N(0, 0.02^2), 64 samples
    # the view is the table: writes through numpy are seen by forward()
    W[3] = [1, 2, 3, 4]
    assert np.array_equal(t.forward([3])[0], [1, 2, 3, 4])
    assert np.array_equal(posenc.LearnedTable(16, 4, seed=42).weights[5], W[5])  # deterministic
    pos = np.array([1, 3, 3, 15])
    g = np.arange(16, dtype=np.float32).reshape(4, 4)
    grad = t.backward(pos, g)
    want = np.zeros((16, 4), np.float32)
    np.add.at(want, pos, g)  # repeated positions accumulate
    assert np.array_equal(grad, want)
    t.backward(pos, g, grad)  # accumulates into the given table
    assert np.array_equal(grad, 2 * want)
    before = W.copy()
    t.sgd_step(grad, 0.5)
    np.testing.assert_allclose(t.weights, before - 0.5 * grad, rtol=1e-6)
    with pytest.raises(posenc.Error, match="16"):
        t.forward([16])  # cannot extrapolate
    p = tmp_path / "table.npy"
    t.save(p)
    assert np.array_equal(np.load(p), t.weights)
    t2 = posenc.LearnedTable.load(str(p))
    assert np.array_equal(t2.weights, t.weights)
    with pytest.raises(ValueError, match=r"grad_out has shape \(4, 3\), want \(4, 4\)"):
        t.backward(pos, np.zeros((4, 3), np.float32))
