"""Batch axes, dtype messages and the numpy requirement: 4-D (batch, tokens, heads, D) and
(batch, heads, tokens, D) arrays against the float64 reference and against one call per
batch element; float64 refused with the conversion in the message; a Python without
numpy told so at import."""
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import posenc
import reference as ref

ROOT = pathlib.Path(__file__).resolve().parents[2]


def omega_of(f):
    return f.inv_freq.astype(np.longdouble) + f.inv_freq_lo.astype(np.longdouble)


def reference_bthd(x, f, positions, layout):
    """(B, T, H, D) reference: every batch element at the same positions."""
    return np.stack([ref.rope(xb, omega_of(f), positions, layout) for xb in x])


@pytest.mark.parametrize("layout", ["interleaved", "half"])
def test_batch_tokens_heads(rng, layout):
    f = posenc.freqs_default(32, 500000.0)
    x = rng.uniform(-1, 1, (3, 7, 4, 32)).astype(np.float32)
    pos = np.array([5, 1000, -3, 0, 2**30, 7, 8])
    y = posenc.rope_apply(x, f, layout=layout, positions=pos, token_axis=1)
    want = reference_bthd(x, f, pos, layout)
    assert y.shape == x.shape and y.dtype == np.float32
    np.testing.assert_allclose(y, want, rtol=0, atol=2.5e-7)
    # The same numbers as one call per batch element, bit for bit.
    each = np.stack([posenc.rope_apply(xb, f, layout=layout, positions=pos) for xb in x])
    assert np.array_equal(y, each)


def test_batch_heads_tokens_and_negative_axis(rng):
    f = posenc.freqs_default(16)
    x = rng.uniform(-1, 1, (2, 3, 5, 16)).astype(np.float32)  # (B, H, T, D)
    y = posenc.rope_apply(x, f, start=100, token_axis=2)
    each = np.stack([posenc.rope_apply(x[b].transpose(1, 0, 2), f, start=100).transpose(1, 0, 2)
                     for b in range(2)])
    assert np.array_equal(y, each)
    assert np.array_equal(posenc.rope_apply(x, f, start=100, token_axis=-2), y)


def test_batch_views_in_place_out_and_qk(rng):
    f = posenc.freqs_default(16)
    x = rng.uniform(-1, 1, (2, 5, 3, 16)).astype(np.float32)  # (B, T, H, D)
    want = posenc.rope_apply(x, f, start=9, token_axis=1)
    # A transposed view of a (B, H, T, D) buffer: no copy, same numbers, and the new
    # output keeps the input's memory order.
    xh = np.ascontiguousarray(x.transpose(0, 2, 1, 3))
    y = posenc.rope_apply(xh.transpose(0, 2, 1, 3), f, start=9, token_axis=1)
    assert np.array_equal(y, want)
    z = x.copy()
    assert posenc.rope_apply(z, f, start=9, token_axis=1, out=z) is z
    assert np.array_equal(z, want)
    out = np.empty_like(x)
    posenc.rope_apply(x, f, start=9, token_axis=1, out=out)
    assert np.array_equal(out, want)
    k = x[:, :, :1].copy()  # one key head (grouped-query attention)
    q2, k2 = posenc.rope_apply_qk(x, k, f, start=9, token_axis=1)
    assert np.array_equal(q2, want) and np.array_equal(k2, want[:, :, :1])


def test_batch_errors_say_what_to_do(rng):
    f = posenc.freqs_default(16)
    x = rng.uniform(-1, 1, (2, 5, 3, 16)).astype(np.float32)
    with pytest.raises(ValueError, match=r"token_axis=1 for \(batch, tokens, heads, head_dim\)"):
        posenc.rope_apply(x, f)
    with pytest.raises(ValueError, match="token_axis=3 is not an axis of x before head_dim"):
        posenc.rope_apply(x, f, token_axis=3)
    # strides no fold fits (every other token): one call per batch element, no copy
    y = posenc.rope_apply(x[:, ::2], f, token_axis=1)
    for b in range(2):
        assert np.array_equal(y[b], posenc.rope_apply(np.ascontiguousarray(x[b, ::2]), f))
    with pytest.raises(ValueError, match=r"numpy.ascontiguousarray\(x\)"):  # 5-D: folds only
        posenc.rope_apply(x[:, ::2, None], f, token_axis=1)
    with pytest.raises(ValueError, match=r"positions has 4 entries, want 5 \(one per token\)"):
        posenc.rope_apply(x, f, token_axis=1, positions=np.arange(4))
    before = x.copy()
    with pytest.raises(ValueError):
        posenc.rope_apply(x, f, token_axis=1, positions=np.arange(4), out=x)
    assert np.array_equal(x, before)  # a refused call leaves the array untouched


def test_float64_refused_with_the_conversion(rng):
    f = posenc.freqs_default(16)
    x = rng.uniform(-1, 1, (4, 16))  # numpy's default dtype
    with pytest.raises(TypeError, match=r"x: dtype float64 is not accepted .*convert with x\.astype\(np\.float32\)"):
        posenc.rope_apply(x, f)
    q = x.astype(np.float32)
    with pytest.raises(TypeError, match=r"convert with v\.astype\(np\.float32\)"):
        posenc.attention(q, q, x)


def test_import_without_numpy_names_numpy(tmp_path):
    """A venv without numpy (no system site-packages) imports the built module: the
    import itself fails, naming numpy and the interpreter."""
    ext = list((ROOT / "build" / "python").glob("posenc*.so"))
    if not ext:
        pytest.skip("tests the `make python` build in build/python")
    venv = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    env = dict(os.environ, PYTHONPATH=str(ext[0].parent))
    r = subprocess.run([str(py), "-c", "import posenc"], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert r.returncode != 0
    assert "ImportError: posenc needs numpy" in r.stderr
    assert str(py) in r.stderr and "-m pip install numpy" in r.stderr
