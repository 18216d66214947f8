"""write_safetensors keeps names and metadata whole or refuses them (issue 26): a NUL
inside a str used to end the C string the writer saw, so "q\\0x" was written as "q"."""
import numpy as np
import pytest

import posenc


@pytest.mark.parametrize("tensors, metadata, what", [
    ({"q\x00x": np.zeros(2, np.float32)}, None, "tensor name 'q\\\\x00x'"),
    ({"w": np.zeros(2, np.float32)}, {"k": "v\x00w"}, "metadata value 'v\\\\x00w'"),
    ({"w": np.zeros(2, np.float32)}, {"k\x00": "v"}, "metadata key 'k\\\\x00'"),
])
def test_nul_in_names_and_metadata_is_refused(tmp_path, tensors, metadata, what):
    path = tmp_path / "x.safetensors"
    with pytest.raises(ValueError, match=what + " holds a NUL"):
        posenc.write_safetensors(str(path), tensors, metadata)
    assert not path.exists()


def test_names_read_back_whole(tmp_path):
    path = tmp_path / "x.safetensors"
    posenc.write_safetensors(str(path), {"a.b": np.arange(2, dtype=np.float32)}, {"k": "v \u00e9"})
    assert list(posenc.read_safetensors(str(path))) == ["a.b"]
    assert posenc.safetensors_metadata(str(path)) == {"k": "v \u00e9"}
