"""Every layer's positional kind through posenc.load_plan, on real configs
(tests/fixtures/configs, sources in its README): GPT-2's learned table,
T5's buckets, LFM2's convolution layers, and the ALiBi slopes of BLOOM,
MPT and Falcon against Hugging Face's own torch arithmetic
(build_alibi_tensor / build_mpt_alibi_tensor restated from transformers'
modeling_bloom.py, modeling_mpt.py and modeling_falcon.py), which needs
python3-torch; those tests are skipped (with the reason) without it."""
import math
from pathlib import Path

import pytest

import posenc

FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "configs"


def test_learned_t5_and_conv_layers():
    gpt2 = posenc.load_plan(FIXTURES / "gpt2.json")
    assert len(gpt2) == 12 and gpt2.num_rope_kinds == 0
    assert all(L["position"] == {"kind": "learned", "rows": 1024, "offset": 0, "dim": 768} for L in gpt2.layers)
    with pytest.raises(posenc.Error, match="its positions are learned"):
        gpt2.freqs(0)
    t5 = posenc.load_plan(FIXTURES / "t5-small.json")
    assert len(t5) == 12
    for i, L in enumerate(t5.layers):
        enc = i < 6
        assert L["layer_type"] == ("encoder" if enc else "decoder")
        assert L["position"] == {"kind": "t5", "num_buckets": 32, "max_distance": 128, "bidirectional": enc,
                                 "bias_layer": 0 if enc else 6, "owns_bias": i in (0, 6), "heads": 8}
    lfm2 = posenc.load_plan(FIXTURES / "lfm2-1.2b.json")
    # Lfm2Config: "full_attention" if i in full_attn_idxs else "conv" (the file
    # has no layer_types); base kwargs.get("theta", kwargs.get("rope_theta"))
    attention = [2, 5, 8, 10, 12, 14]
    for i, L in enumerate(lfm2.layers):
        if i in attention:
            assert L["position"] == {"kind": "rope"} and L["base"] == 1e6
        else:
            assert L["position"] == {"kind": "none", "why": "conv"} and L["attention"] is False


def test_families_list():
    fams = {f["model_type"]: f for f in posenc.families()}
    assert fams["falcon"]["kinds"] == ("rope", "alibi") and fams["mpt"]["kinds"] == ("alibi",)
    assert fams["longt5"]["refusal"] and fams["llama"]["refusal"] is None


def _torch():
    return pytest.importorskip("torch", reason="python3-torch is not installed (apt-get install python3-torch)")


def hf_bloom_slopes(torch, n):  # modeling_bloom.build_alibi_tensor's slopes
    c = 2 ** math.floor(math.log2(n))
    base = torch.tensor(2 ** (-(2 ** -(math.log2(c) - 3))), dtype=torch.float32)
    slopes = torch.pow(base, torch.arange(1, 1 + c, dtype=torch.int32))
    if c != n:
        extra = torch.tensor(2 ** (-(2 ** -(math.log2(2 * c) - 3))), dtype=torch.float32)
        rest = min(c, n - c)
        slopes = torch.cat([slopes, torch.pow(extra, torch.arange(1, 1 + 2 * rest, 2, dtype=torch.int32))])
    return slopes


def hf_mpt_slopes(torch, n, bias_max=8):  # modeling_mpt.build_mpt_alibi_tensor's slopes
    c = 2 ** math.ceil(math.log2(n))
    base = torch.arange(1, c + 1, dtype=torch.int64).float() * (bias_max / c)
    slopes = 1.0 / torch.pow(2, base)
    if c != n:
        slopes = torch.concat([slopes[1::2], slopes[::2]])[:n]
    return slopes


@pytest.mark.parametrize("heads", [1, 8, 12, 16, 32, 40, 71, 112])
def test_alibi_slopes_as_hf_computes_them(heads):
    torch = _torch()
    cases = [("bloom", hf_bloom_slopes(torch, heads).tolist(), "press", "float32"),
             ("mpt", hf_mpt_slopes(torch, heads).tolist(), "mpt", "float32"),
             ("falcon", hf_bloom_slopes(torch, heads).bfloat16().float().tolist(), "press", "bfloat16")]
    for family, want, rule, dtype in cases:
        cfg = {"model_type": family, "hidden_size": 64 * heads, "num_attention_heads": heads,
               "num_hidden_layers": 2}
        if family == "falcon":
            cfg["alibi"] = True
        P = posenc.load_plan(cfg).layer(1)["position"]
        assert (P["kind"], P["slope_rule"], P["hf_slope_dtype"], P["heads"]) == ("alibi", rule, dtype, heads)
        # posenc rounds (float32 base)^k correctly; torch's float32 pow (a
        # vectorised approximation) is within one float32 ulp of that, and
        # bfloat16 of it within one bfloat16 ulp. The exact ones are equal.
        ulp = 2.0 ** -23 if dtype == "float32" else 2.0 ** -7
        for h, (got, hf) in enumerate(zip(P["hf_slopes"], want)):
            assert abs(got - hf) <= ulp * hf, (family, h, got, hf)
        same = sum(g == w for g, w in zip(P["hf_slopes"], want))
        assert same >= heads - max(1, heads // 8), (family, same, heads)
        # Exact slopes: the real-number formula, which HF's float32 differs from.
        c = 2 ** (math.floor if rule == "press" else math.ceil)(math.log2(heads))
        if rule == "press":
            exact = [2.0 ** (-8 * (h + 1) / c) if h < c else 2.0 ** (-4 * (2 * (h - c) + 1) / c)
                     for h in range(heads)]
        else:
            order = list(range(1, c, 2)) + list(range(0, c, 2)) if c != heads else list(range(c))
            exact = [2.0 ** (-8 * (j + 1) / c) for j in order[:heads]]
        assert list(P["slopes"]) == pytest.approx(exact, rel=2e-16, abs=0)
