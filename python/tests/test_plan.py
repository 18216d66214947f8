"""posenc.load_plan: per-layer plans from a config.json path or a dict, checked against
the models' own rules restated here in float64 (never against posenc's output)."""
import json
import math
import pathlib

import numpy as np
import pytest

import posenc

FIXTURES = pathlib.Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "configs"


def default_omega(d, base, exponent_dim=None):
    exponent_dim = exponent_dim or d
    return np.array([base ** (-2.0 * i / exponent_dim) for i in range(d // 2)])


def test_gemma3_local_and_global_layers_from_a_path():
    plan = posenc.load_plan(FIXTURES / "gemma-3-1b-it.json")
    assert plan.model_type == "gemma3_text" and len(plan) == 26 and plan.num_rope_kinds == 2
    assert plan.warnings == ()
    for i, layer in enumerate(plan.layers):
        full = (i + 1) % 6 == 0
        assert layer["layer_type"] == ("full_attention" if full else "sliding_attention")
        assert layer["base"] == (1e6 if full else 1e4)
        assert layer["sliding_window"] == (None if full else 512)
        assert layer["layout"] == "half" and layer["rotary_dim"] == 256
        f = plan.freqs(i)
        np.testing.assert_allclose(f.inv_freq, default_omega(256, layer["base"]), rtol=4e-16, atol=0)
        assert f.attention_factor == 1.0


def test_plan_from_a_dict_equals_the_file():
    cfg = json.loads((FIXTURES / "olmo-3-7b.json").read_text())
    a, b = posenc.load_plan(cfg), posenc.load_plan(str(FIXTURES / "olmo-3-7b.json"))
    assert a.layers == b.layers
    # YaRN (factor 8, L0 8192, beta 32/1, truncated ramp) on full layers only.
    d, base, f, l0 = 128, 500000.0, 8.0, 8192
    corr = lambda beta: d * math.log(l0 / (2 * math.pi * beta)) / (2 * math.log(base))
    lo, hi = max(math.floor(corr(32)), 0), min(math.ceil(corr(1)), d - 1)
    w = default_omega(d, base)
    keep = 1 - np.clip((np.arange(d // 2) - lo) / (hi - lo), 0, 1)
    want = w / f * (1 - keep) + w * keep
    full = a.freqs(3)
    np.testing.assert_allclose(full.inv_freq, want, rtol=1e-15, atol=0)
    assert full.attention_factor == pytest.approx(0.1 * math.log(8) + 1, rel=1e-15)
    local = a.freqs(0)
    np.testing.assert_allclose(local.inv_freq, w, rtol=4e-16, atol=0)
    assert local.attention_factor == 1.0
    # the layer's parameters come from the scheme table: what yarn reads, as the config says
    yarn = {p["name"] for p in posenc.scaling_params()} & set(a.layer(3)["scaling"])
    assert yarn == set(next(s for s in posenc.scaling_schemes() if s["name"] == "yarn")["params"])
    assert a.layer(3)["scaling"]["factor"] == 8.0 and a.layer(3)["scaling"]["original_max_position"] == 8192
    assert a.layer(3)["scaling"]["beta_fast"] == 32.0 and a.layer(3)["scaling"]["truncate"] is True
    assert a.layer(0)["scaling"] == {}  # default RoPE reads nothing


def test_nope_layers_and_query_scale():
    plan = posenc.load_plan(FIXTURES / "llama-4-scout-17b-16e.json")
    nope = plan.layer(3)
    assert nope["rope"] is False and nope["rope_type"] is None
    assert nope["query_scale"] == {"beta": 0.1, "span": 8192, "offset": 1}
    with pytest.raises(posenc.Error, match="does not rotate"):
        plan.freqs(3)
    for p in (0, 8190, 8191, 100000):
        assert plan.query_scale(3, p) == pytest.approx(1 + 0.1 * math.log1p(math.floor((p + 1) / 8192)), rel=1e-15)
        assert plan.query_scale(0, p) == 1.0
    assert plan.layer(-1)["layer_type"] == "full_attention"  # Python indexing
    assert plan.layer(0)["chunk_size"] == 8192 and plan.layer(0)["layout"] == "interleaved"


def test_gemma4_proportional_global_head():
    plan = posenc.load_plan(FIXTURES / "gemma-4-e2b-it.json")
    g = plan.layer(4)
    assert (g["rope_type"], g["head_dim"], g["rotary_dim"]) == ("proportional", 512, 128)
    f = plan.freqs(4)
    want = np.concatenate([default_omega(128, 1e6, exponent_dim=512), np.zeros(192)])
    np.testing.assert_allclose(f.inv_freq, want, rtol=4e-16, atol=0)


def test_errors_and_arguments():
    with pytest.raises(posenc.FormatError, match="'layer_types' has 1 entries but num_hidden_layers=2"):
        posenc.load_plan({"model_type": "llama", "head_dim": 64, "num_hidden_layers": 2,
                          "layer_types": ["full_attention"]})
    with pytest.raises(posenc.FileError, match="cannot open"):
        posenc.load_plan("/nonexistent/config.json")
    with pytest.raises(TypeError, match="path or a dict"):
        posenc.load_plan(3)
    # Closed world: refused, naming the nearest records; family= on purpose.
    with pytest.raises(posenc.Error, match="'brand_new' is not in posenc's family registry"):
        posenc.load_plan({"model_type": "brand_new", "head_dim": 64})
    with pytest.raises(posenc.Error, match="closest: 'llama'"):
        posenc.load_plan({"head_dim": 64}, family="lama")
    plan = posenc.load_plan({"model_type": "brand_new", "head_dim": 64, "no_rope_layers": [1]},
                            family="llama")
    assert plan.model_type == "llama" and plan.layer(0)["base"] == 10000.0
    assert any("'no_rope_layers': model_type 'llama' does not read it" in w for w in plan.warnings)
    # no num_hidden_layers: LlamaConfig's class default, 32 layers
    with pytest.raises(IndexError, match="layer 32 is outside"):
        plan.layer(32)
    with pytest.raises(posenc.Error, match="seq_len=-1"):
        plan.freqs(0, seq_len=-1)
