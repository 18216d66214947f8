"""Batch axes whose output elements share memory are refused (issue 26).

One row written by two batch elements is rotated twice: that is not "in place", and the
result depended on the order the elements were visited. py_batch.c (pyb_outputs_apart)
requires an output's (batch, tokens, heads) rows to nest; every dense layout in any axis
order, and windows of a bigger cache that do not overlap, still pass."""
import numpy as np
import pytest
from numpy.lib.stride_tricks import as_strided

import posenc


def shared_batch(shape, base_rows, batch_stride_rows):
    """A writable (B, T, H, D) float32 view whose batch step is batch_stride_rows rows."""
    B, T, H, D = shape
    buf = np.zeros((base_rows, H, D), np.float32)
    it = buf.itemsize
    return buf, as_strided(buf, shape, (batch_stride_rows * H * D * it, H * D * it, D * it, it), writeable=True)


@pytest.mark.parametrize("stride_rows", [0, 2])
def test_rope_out_batch_elements_sharing_rows_are_refused(stride_rows):
    B, T, H, D = 3, 4, 2, 8
    f = posenc.freqs_default(D)
    x = np.ones((B, T, H, D), np.float32)
    buf, out = shared_batch((B, T, H, D), T + (B - 1) * stride_rows, stride_rows)
    pos = np.arange(B * T).reshape(B, T)  # per-element positions: one call per element
    with pytest.raises(ValueError, match="batch elements share memory"):
        posenc.rope_apply(x, f, positions=pos, token_axis=1, out=out)
    assert not buf.any()  # nothing written
    with pytest.raises(ValueError, match="batch elements share memory"):
        posenc.rope_apply(x, f, start=5, token_axis=1, out=out)


def test_rope_out_layouts_that_nest_are_accepted(rng):
    B, T, H, D = 3, 4, 2, 8
    f = posenc.freqs_default(D)
    x = rng.uniform(-1, 1, (B, T, H, D)).astype(np.float32)
    pos = np.arange(B * T).reshape(B, T) * 7
    want = posenc.rope_apply(x, f, positions=pos, token_axis=1)
    seq_first = np.zeros((T, B, H, D), np.float32)  # (T, B, H, D) seen as (B, T, H, D)
    out = seq_first.transpose(1, 0, 2, 3)
    posenc.rope_apply(x, f, positions=pos, token_axis=1, out=out)
    assert np.array_equal(out, want)
    big = np.zeros((B, T + 3, H, D), np.float32)  # windows of a bigger buffer
    posenc.rope_apply(x, f, positions=pos, token_axis=1, out=big[:, 2:2 + T])
    assert np.array_equal(big[:, 2:2 + T], want) and not big[:, :2].any() and not big[:, 2 + T:].any()


def test_fused_overlapping_cache_windows_are_refused(rng):
    B, T, nq, nkv, D = 3, 4, 2, 1, 8
    f = posenc.freqs_default(D)
    qkv = rng.uniform(-1, 1, (B, T, (nq + 2 * nkv) * D)).astype(np.float32)
    vc = np.zeros((B, T, nkv, D), np.float32)
    # k windows [2b, 2b + T) of one cache: element b's last rows are b+1's first
    kbuf, kc = shared_batch((B, T, nkv, D), T + 2 * (B - 1), 2)
    with pytest.raises(ValueError, match="k_cache: its batch elements share memory"):
        posenc.rope_fused_qkv(qkv, f, nq, nkv, k_cache=kc, v_cache=vc, offsets=np.array([0, 2, 4]))
    assert not kbuf.any() and not vc.any()
    # disjoint windows [T b, T b + T) of the same kind of buffer are fine
    kbuf, kc = shared_batch((B, T, nkv, D), T * B, T)
    posenc.rope_fused_qkv(qkv, f, nq, nkv, k_cache=kc, v_cache=vc, offsets=np.array([0, 2, 4]))
    assert kbuf.any()
