"""torch tensors posenc must not misread through DLPack (issue 26): a negative view's
memory holds its values without their sign (torch 1.13's export drops the bit), and an
interrupt raised inside __dlpack__ is the user's ^C, not a TypeError."""
import numpy as np
import pytest

import posenc

torch = pytest.importorskip("torch")


def test_negative_view_is_refused_not_read_without_its_sign():
    f = posenc.freqs_default(8)
    x = torch.arange(16, dtype=torch.float32).reshape(2, 8)
    neg = x._neg_view()
    assert neg.is_neg()
    with pytest.raises(TypeError, match=r"x is a negative view .*pass x.resolve_neg\(\)"):
        posenc.rope_apply(neg, f, start=0)
    out = torch.zeros(2, 8)._neg_view()
    with pytest.raises(TypeError, match="out is a negative view"):
        posenc.rope_apply(x, f, start=0, out=out)
    # resolved, it is an ordinary tensor with the right sign
    y = posenc.rope_apply(neg.resolve_neg(), f, start=0)
    assert np.array_equal(np.asarray(y), -np.asarray(posenc.rope_apply(x, f, start=0)))


def test_conjugate_view_of_a_real_part_is_refused():
    f = posenc.freqs_default(8)
    z = torch.arange(16, dtype=torch.float32).reshape(2, 8) * (1 + 1j)
    im = z.conj().imag  # a real negative view of the imaginary part
    if not im.is_neg():
        pytest.skip("this torch resolves z.conj().imag eagerly")
    with pytest.raises(TypeError, match="negative view"):
        posenc.rope_apply(im, f, start=0)


class Interrupting:
    """Looks like a tensor; its __dlpack__ is interrupted."""
    ndim = 2

    def __dlpack_device__(self):
        return (1, 0)

    def __dlpack__(self, stream=None):
        raise KeyboardInterrupt


def test_keyboard_interrupt_inside_dlpack_stays_an_interrupt():
    f = posenc.freqs_default(8)
    with pytest.raises(KeyboardInterrupt):
        posenc.rope_apply(Interrupting(), f, start=0)


def test_other_export_errors_still_name_the_argument():
    f = posenc.freqs_default(8)
    x = torch.zeros(2, 8, requires_grad=True)
    with pytest.raises(TypeError, match="x: the tensor cannot be exported through DLPack"):
        posenc.rope_apply(x, f, start=0)
