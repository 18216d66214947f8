"""Torch tensors (DLPack, python/py_dlpack.c) on the batched forms of the table, packed,
M-RoPE and fused calls: the same bits as the numpy call, written into the tensors
themselves (no copy: in place the result is the tensor, its data pointer unchanged),
strided views of bigger tensors included. Skipped without Debian's python3-torch."""
import numpy as np
import pytest

import posenc

torch = pytest.importorskip("torch", reason="python3-torch is not installed (apt-get install python3-torch)")

D = 32


def bits(t):
    """A torch tensor's raw bits as a numpy array (bfloat16 as uint16)."""
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(np.uint16)
    return t.numpy()


def tensor(rng, shape, dtype=torch.float32):
    return torch.from_numpy(rng.uniform(-1, 1, shape).astype(np.float32)).to(dtype)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_torch_table_and_varlen_batched_in_place(rng, dtype):
    f = posenc.freqs_default(D, 1e4)
    c, s = posenc.rope_cos_sin(f, 64)
    B, H, T = 3, 2, 6
    x = tensor(rng, (B, H, T, D), dtype)  # (B, H, T, D): token_axis=2
    offs = torch.tensor([0, 20, 50])
    want = posenc.rope_apply_table(bits(x).copy(), c, s, token_axis=2, offsets=offs.numpy())
    ptr = x.data_ptr()
    r = posenc.rope_apply_table(x, c, s, token_axis=2, offsets=offs, out=x)
    assert r is x and x.data_ptr() == ptr and np.array_equal(bits(x), want)
    # torch cos/sin tables too, and a window of a bigger torch cache as x
    ct, st = torch.from_numpy(c), torch.from_numpy(s)
    big = tensor(rng, (B, 10, H, D), dtype)
    win = big[:, 2:2 + T]
    assert not win.is_contiguous()
    want = posenc.rope_apply_table(bits(win).copy(), c, s, token_axis=1, offsets=offs.numpy())
    posenc.rope_apply_table(win, ct, st, token_axis=1, offsets=offs, out=win)
    assert np.array_equal(bits(big)[:, 2:2 + T], want)
    # packed sequences per element
    cu = torch.tensor([[0, 2, 6], [0, 6, 6], [0, 1, 6]], dtype=torch.int32)
    y = tensor(rng, (B, T, H, D), dtype)
    want = posenc.rope_apply_varlen(bits(y).copy(), f, cu.numpy(), token_axis=1)
    posenc.rope_apply_varlen(y, f, cu, token_axis=1, out=y)
    assert np.array_equal(bits(y), want)


def test_torch_mrope_batched(rng):
    f = posenc.freqs_default(D, 1e6)
    B, T = 2, 5
    x = tensor(rng, (B, T, 3, D))
    k = tensor(rng, (B, T, 1, D))
    pos = torch.from_numpy(rng.integers(0, 1000, (B, T, 3)))
    wq = posenc.mrope_apply(bits(x).copy(), f, pos.numpy(), [8, 4, 4], token_axis=1)
    wk = posenc.mrope_apply(bits(k).copy(), f, pos.numpy(), [8, 4, 4], token_axis=1)
    qo, ko = posenc.mrope_apply_qk(x, k, f, pos, [8, 4, 4], token_axis=1, q_out=x, k_out=k)
    assert qo is x and ko is k
    assert np.array_equal(bits(x), wq) and np.array_equal(bits(k), wk)


@pytest.mark.parametrize("cache_dtype", [torch.float16, torch.bfloat16])
def test_torch_fused_batched_writes_the_cache_slices(rng, cache_dtype):
    B, T, nq, nkv, Tmax = 3, 4, 4, 2, 16
    f = posenc.freqs_default(D, 1e4)
    qkv = tensor(rng, (B, T, (nq + 2 * nkv) * D))
    qkv_np = qkv.numpy().copy()
    kbig = torch.zeros((B, nkv, Tmax, D), dtype=cache_dtype)  # (B, n_kv, T_max, D) as engines keep it
    vbig = torch.zeros((B, nkv, Tmax, D), dtype=cache_dtype)
    offs = torch.tensor([0, 5, 11])
    # every element at token window [7, 7 + T) of its cache, as a (B, T, n_kv, D) strided view
    kc, vc = kbig[:, :, 7:7 + T].transpose(1, 2), vbig[:, :, 7:7 + T].transpose(1, 2)
    ptr = qkv.data_ptr()
    r = posenc.rope_fused_qkv(qkv, f, nq, nkv, k_cache=kc, v_cache=vc, offsets=offs)
    assert r is qkv and qkv.data_ptr() == ptr
    npk = np.zeros((B, T, nkv, D), np.float16 if cache_dtype == torch.float16 else np.uint16)
    npv = np.zeros_like(npk)
    want = posenc.rope_fused_qkv(qkv_np, f, nq, nkv, k_cache=npk, v_cache=npv, offsets=offs.numpy())
    assert np.array_equal(qkv.numpy(), want)
    assert np.array_equal(bits(kbig)[:, :, 7:7 + T].transpose(0, 2, 1, 3), npk)
    assert np.array_equal(bits(vbig)[:, :, 7:7 + T].transpose(0, 2, 1, 3), npv)
    assert not bits(kbig)[:, :, :7].any() and not bits(kbig)[:, :, 7 + T:].any()
