"""Per-batch positions on the batch axis: (B, T, H, D) and (B, H, T, D) arrays whose batch
elements sit at their own offsets (KV caches of different lengths) or their own positions,
for rope_apply, rope_rebase and rope_shift: against the float64 reference and bit for bit
against one call per batch element; the refusals say what shape was expected and write
nothing."""
import numpy as np
import pytest

import posenc
import reference as ref


def omega_of(f):
    return f.inv_freq.astype(np.longdouble) + f.inv_freq_lo.astype(np.longdouble)


@pytest.mark.parametrize("token_axis", [1, 2])
@pytest.mark.parametrize("layout", ["interleaved", "half"])
def test_offsets_per_batch_element(rng, token_axis, layout):
    f = posenc.freqs_default(32, 500000.0)
    B, T, H = 4, 6, 3
    x = rng.uniform(-1, 1, (B, T, H, 32)).astype(np.float32)
    xa = x if token_axis == 1 else np.ascontiguousarray(x.transpose(0, 2, 1, 3))
    offs = np.array([0, 17, 2**31 - 6, -40])
    y = posenc.rope_apply(xa, f, layout=layout, token_axis=token_axis, offsets=offs)
    yt = y if token_axis == 1 else y.transpose(0, 2, 1, 3)
    for b in range(B):
        want = ref.rope(x[b], omega_of(f), offs[b] + np.arange(T), layout)
        np.testing.assert_allclose(yt[b], want, rtol=0, atol=2.5e-7)
        assert np.array_equal(yt[b], posenc.rope_apply(x[b], f, layout=layout, start=int(offs[b])))
    # the same thing as (B, T) positions, and in place
    pos = offs[:, None] + np.arange(T)
    assert np.array_equal(posenc.rope_apply(xa, f, layout=layout, token_axis=token_axis, positions=pos), y)
    posenc.rope_apply(xa, f, layout=layout, token_axis=token_axis, offsets=offs, out=xa)
    assert np.array_equal(xa, y)


def test_positions_per_batch_rebase_and_shift(rng):
    f = posenc.freqs_default(16)
    g = posenc.freqs_from_scaling("ntk", 16, factor=4.0)
    B, H, T = 3, 2, 5
    k = rng.uniform(-1, 1, (B, H, T, 16)).astype(np.float32)  # (B, H, T, D)
    pos = rng.integers(-10**6, 10**6, (B, T))
    r = posenc.rope_rebase(k, f, g, token_axis=2, positions=pos)
    for b in range(B):
        kb = k[b].transpose(1, 0, 2)
        assert np.array_equal(r[b].transpose(1, 0, 2), posenc.rope_rebase(kb, f, g, positions=pos[b]))
    d = rng.integers(-300, 300, (B, T))
    s = posenc.rope_shift(k, f, d, token_axis=2)
    s1 = posenc.rope_shift(k, f, d[:, :1], token_axis=2)  # one delta per batch element
    for b in range(B):
        kb = k[b].transpose(1, 0, 2)
        assert np.array_equal(s[b].transpose(1, 0, 2), posenc.rope_shift(kb, f, d[b]))
        assert np.array_equal(s1[b].transpose(1, 0, 2), posenc.rope_shift(kb, f, int(d[b, 0])))


def test_per_batch_refusals_write_nothing(rng):
    f = posenc.freqs_default(16)
    x = rng.uniform(-1, 1, (3, 4, 2, 16)).astype(np.float32)
    before = x.copy()
    with pytest.raises(ValueError, match=r"offsets has shape \(2,\), want \(3,\)"):
        posenc.rope_apply(x, f, token_axis=1, offsets=[1, 2], out=x)
    with pytest.raises(ValueError, match=r"positions has shape \(3, 5\), want .*\(3, 4\)"):
        posenc.rope_apply(x, f, token_axis=1, positions=np.zeros((3, 5), np.int64), out=x)
    with pytest.raises(ValueError, match="offsets replaces start and positions"):
        posenc.rope_apply(x, f, token_axis=1, offsets=[1, 2, 3], start=5, out=x)
    with pytest.raises(OverflowError, match=r"offsets\[2\]=.* overflow int64"):
        posenc.rope_apply(x, f, token_axis=1, offsets=[0, 0, 2**63 - 2], out=x)
    with pytest.raises(ValueError, match=r"need x as \(batch, tokens, heads, head_dim\)"):
        posenc.rope_apply(x[0], f, offsets=[1, 2, 3])
    with pytest.raises(ValueError, match=r"delta has shape \(3, 2\)"):
        posenc.rope_shift(x, f, np.zeros((3, 2), np.int64), token_axis=1, out=x)
    assert np.array_equal(x, before)
