""".npy and safetensors through the binding (round trips with numpy's own writer and
reader, hand-made lying files), the q/k row permutation against Hugging Face's
permute(), and `posenc convert-qk` proven by equal attention scores."""
import json
import struct
import subprocess

import numpy as np
import pytest

import posenc
import reference as ref


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int64])
@pytest.mark.parametrize("version", [(1, 0), (2, 0)])
def test_npy_reads_what_numpy_writes(tmp_path, rng, dtype, version):
    a = (rng.standard_normal((3, 4, 5)) * 100).astype(dtype)
    p = tmp_path / "a.npy"
    with open(p, "wb") as f:
        np.lib.format.write_array(f, a, version=version)
    b = posenc.read_npy(p)
    assert b.dtype == dtype and b.shape == a.shape and np.array_equal(a, b)
    b[0, 0, 0] = 7  # a writable view of the library's buffer, not a copy of it
    q = tmp_path / "b.npy"
    posenc.write_npy(str(q), b)
    assert np.array_equal(np.load(q), b)


def test_npy_errors(tmp_path):
    p = tmp_path / "f.npy"
    np.save(p, np.asfortranarray(np.ones((2, 3), np.float32)))
    with pytest.raises(posenc.FormatError, match="fortran_order"):
        posenc.read_npy(p)
    np.save(p, np.ones(3, np.int32))
    with pytest.raises(posenc.DtypeError, match="'<i4' is not supported") as e:
        posenc.read_npy(p)
    assert isinstance(e.value, TypeError)
    raw = (tmp_path / "t.npy")
    np.save(raw, np.ones(10, np.float32))
    raw.write_bytes(raw.read_bytes()[:-5])
    with pytest.raises(posenc.FormatError, match="needs 40 data bytes, file has 35"):
        posenc.read_npy(raw)
    with pytest.raises(posenc.FileError, match="cannot open"):
        posenc.read_npy(tmp_path / "none.npy")
    with pytest.raises(ValueError, match="C-contiguous"):
        posenc.write_npy(p, np.ones((4, 4), np.float32)[:, ::2])


def test_safetensors_round_trip(tmp_path, rng):
    tensors = {
        "w": rng.standard_normal((4, 3)).astype(np.float32),
        "h": rng.standard_normal(5).astype(np.float16),
        "bf": ref.f32_to_bf16(rng.standard_normal((2, 2)).astype(np.float32)),
        "ids": np.array([-1, 2**40], dtype=np.int64),
        "d": np.array(2.5),
        "mask": np.array([True, False, True]),
        "u16": np.array([1, 65535], dtype=np.uint16),
        "empty": np.zeros((0, 3), np.float16),
    }
    p = tmp_path / "m.safetensors"
    posenc.write_safetensors(p, tensors, {"format": "pt"}, dtypes={"u16": "U16"})
    back = posenc.read_safetensors(p)
    assert set(back) == set(tensors)
    for k, v in tensors.items():
        assert back[k].shape == v.shape and np.array_equal(back[k], v), k
        assert back[k].dtype == v.dtype, k
    assert posenc.safetensors_metadata(p) == {"format": "pt"}
    # the header as the format's reference reader expects it
    raw = p.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    assert n % 8 == 0 and header["bf"]["dtype"] == "BF16" and header["u16"]["dtype"] == "U16"
    assert header["w"] == {"dtype": "F32", "shape": [4, 3], "data_offsets": header["w"]["data_offsets"]}
    ends = sorted(tuple(t["data_offsets"]) for k, t in header.items() if k != "__metadata__")
    assert ends[0][0] == 0 and all(a[1] == b[0] for a, b in zip(ends, ends[1:]))
    assert ends[-1][1] == len(raw) - 8 - n


def write_raw(path, header, data):
    h = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(h)) + h + data)


def test_safetensors_lying_files_are_named_errors(tmp_path):
    p = tmp_path / "bad.safetensors"
    write_raw(p, {"x": {"dtype": "F32", "shape": [4, 4], "data_offsets": [0, 16]}}, bytes(16))
    with pytest.raises(posenc.FormatError, match=r"'x' shape needs 64 bytes but data_offsets \[0, 16\] span 16"):
        posenc.read_safetensors(p)
    write_raw(p, {"x": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}, bytes(8))
    with pytest.raises(posenc.FormatError, match="run past the 8-byte data section"):
        posenc.read_safetensors(p)
    write_raw(p, {"x": {"dtype": "F32", "shape": [2 ** 40, 2 ** 40, 2 ** 40], "data_offsets": [0, 8]}}, bytes(8))
    with pytest.raises(posenc.FormatError, match="overflows"):
        posenc.read_safetensors(p)
    p.write_bytes(struct.pack("<Q", 2**63) + b"{}")
    with pytest.raises(posenc.FormatError, match="exceeds the 100000000-byte limit"):
        posenc.read_safetensors(p)
    with pytest.raises(TypeError, match="no safetensors dtype"):
        posenc.write_safetensors(p, {"c": np.ones(2, np.complex64)})
    with pytest.raises(posenc.Error, match="nbytes=4, its shape and dtype need 8"):
        posenc.write_safetensors(p, {"x": np.ones(2, np.uint16)}, dtypes={"x": "F32"})


def test_qk_permute_rows_is_hf_permute(rng):
    H, D, C = 4, 8, 6
    w = rng.standard_normal((H * D, C)).astype(np.float32)
    half = posenc.qk_permute_rows(w, D, to="half")
    assert np.array_equal(half, ref.hf_permute(w, H))
    assert np.array_equal(posenc.qk_permute_rows(half, D, to="interleaved"), w)
    b = np.arange(H * D, dtype=np.int64)  # biases and any dtype
    assert np.array_equal(posenc.qk_permute_rows(b, D), ref.hf_permute(b, H))
    out = np.empty_like(w)
    assert posenc.qk_permute_rows(w, D, rotary_dim=4, out=out) is out
    assert np.array_equal(out[4:8], w[4:8])  # rows past rotary_dim stay
    with pytest.raises(posenc.Error, match="rows=32 is not a multiple of head_dim=6"):
        posenc.qk_permute_rows(w, 6)
    with pytest.raises(posenc.Error, match="overlaps"):
        posenc.qk_permute_rows(w, D, out=w)


def scores(q, k, heads, kv_heads):
    """(heads, Tq, Tk) float64 logits q k^T, key head h // (heads / kv_heads) for query head h."""
    group = heads // kv_heads
    kk = np.repeat(k.astype(np.float64), group, axis=1)
    return np.einsum("thd,shd->hts", q.astype(np.float64), kk)


def test_convert_qk_keeps_attention_scores(tmp_path, rng, posenc_cli):
    """A Meta checkpoint (interleaved) and its conversion (half) give the same scores
    when each side rotates in its own layout; the unconverted weights under the half
    layout do not. GQA, partial rotary, a bias, and positions far apart."""
    H, KV, D, RD, HID, T = 8, 2, 16, 12, 32, 6
    meta = {
        "layers.0.attention.wq.weight": rng.standard_normal((H * D, HID)).astype(np.float32),
        "layers.0.attention.wk.weight": rng.standard_normal((KV * D, HID)).astype(np.float32),
        "layers.0.attention.wq.bias": rng.standard_normal(H * D).astype(np.float32),
        "layers.0.attention.wv.weight": rng.standard_normal((KV * D, HID)).astype(np.float32),
        "norm.weight": np.ones(HID, np.float32),
    }
    src, dst = tmp_path / "meta.safetensors", tmp_path / "hf.safetensors"
    posenc.write_safetensors(src, meta)
    run = subprocess.run([posenc_cli, "convert-qk", "--in", str(src), "--out", str(dst), "--to", "half",
                          "--heads", str(H), "--kv-heads", str(KV), "--rotary-dim", str(RD)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "converted 3 of 5 tensors to the half layout" in run.stdout
    hf = posenc.read_safetensors(dst)
    assert np.array_equal(hf["layers.0.attention.wv.weight"], meta["layers.0.attention.wv.weight"])
    assert posenc.safetensors_metadata(dst)["posenc.qk_layout"] == "half"
    x = rng.standard_normal((T, HID))
    pos = np.array([0, 5, 6, 1000, 65536, 123457])
    f = posenc.freqs_default(RD, 500000.0)

    def qk(w, layout):
        q = (x @ w["layers.0.attention.wq.weight"].astype(np.float64).T + w["layers.0.attention.wq.bias"])
        k = x @ w["layers.0.attention.wk.weight"].astype(np.float64).T
        q = q.astype(np.float32).reshape(T, H, D)
        k = k.astype(np.float32).reshape(T, KV, D)
        return posenc.rope_apply_qk(q, k, f, layout=layout, positions=pos)

    qm, km = qk(meta, "interleaved")
    s_meta = scores(qm, km, H, KV)
    s_hf = scores(*qk(hf, "half"), H, KV)
    # the rotated elements are the same floats, permuted: only the order of the float64
    # sum over D differs, |diff| <= D eps sum|terms|
    mag = scores(np.abs(qm), np.abs(km), H, KV)
    assert np.all(np.abs(s_meta - s_hf) <= D * 2.0**-52 * mag)
    s_wrong = scores(*qk(meta, "half"), H, KV)
    assert np.abs(s_wrong - s_meta).max() > 1.0
    # and back: the round trip restores the original bytes
    back = tmp_path / "back.safetensors"
    subprocess.run([posenc_cli, "convert-qk", "--in", str(dst), "--out", str(back), "--to", "interleaved",
                    "--heads", str(H), "--kv-heads", str(KV), "--rotary-dim", str(RD)], check=True,
                   capture_output=True)
    rt = posenc.read_safetensors(back)
    assert all(np.array_equal(rt[k], meta[k]) for k in meta)


def test_convert_qk_bf16_checkpoint(tmp_path, rng, posenc_cli):
    """Rows move as bytes: a bf16 checkpoint converts without a float round trip."""
    H, D, HID = 2, 8, 4
    w = ref.f32_to_bf16(rng.standard_normal((H * D, HID)).astype(np.float32))
    src, dst = tmp_path / "a.safetensors", tmp_path / "b.safetensors"
    posenc.write_safetensors(src, {"model.layers.0.self_attn.q_proj.weight": w})
    subprocess.run([posenc_cli, "convert-qk", "--in", str(src), "--out", str(dst), "--to", "interleaved",
                    "--heads", str(H)], check=True, capture_output=True)
    got = posenc.read_safetensors(dst)["model.layers.0.self_attn.q_proj.weight"]
    assert got.dtype == np.uint16
    assert np.array_equal(ref.hf_permute(got, H), w)  # interleaved -> half restores w
