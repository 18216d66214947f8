"""posenc.check: an engine's dump against a checkpoint's plan. Correct dumps (posenc's exact
rotation, stored in float32 or float16) agree; float32 engines restated here in numpy (Hugging
Face's float32 inv_freq and t * inv_freq) get verdict 'float32' with their recipe named; faults
made here the way engines make them (the other pair layout, an off-by-one position, float16
cos/sin tables, a fault on top of float32 arithmetic) are named first. The bound is
pe_check_report's (include/posenc.h); docs/CHECK.md the long form."""
import json
import pathlib

import numpy as np
import pytest

import posenc

FIXTURES = pathlib.Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "configs"
LLAMA = FIXTURES / "llama-3.1-8b.json"


@pytest.fixture
def x():
    return np.random.default_rng(18).uniform(-1, 1, (48, 3, 128)).astype(np.float32)


def plan_rotation(x, start, layout="half"):
    f = posenc.load_plan(LLAMA).freqs(0)
    return posenc.rope_apply(x, f, layout=layout, start=start)


def test_correct_f32_dump_agrees(x):
    r = posenc.check(LLAMA, x, plan_rotation(x, 100000), start=100000)
    assert r["verdict"] == "agree" and r["max_abs_err"] <= r["bound"]
    assert r["first_divergence"] is None and r["diagnoses"] == []
    assert r["growth"]["max_abs_err"].shape == (32, 4)


def test_correct_f16_dump_agrees(x):
    x16 = x.astype(np.float16)
    y16 = plan_rotation(x16.astype(np.float32), 7).astype(np.float16)
    r = posenc.check(str(LLAMA), x16, y16, positions=np.arange(7, 7 + len(x)))
    assert r["verdict"] == "agree", r


def test_layout_named_first_from_a_dict(x):
    r = posenc.check(json.loads(LLAMA.read_text()), x, plan_rotation(x, 0, "interleaved"))
    assert r["verdict"] == "disagree"
    assert r["diagnoses"][0]["name"] == "layout"
    assert r["diagnoses"][0]["detail"] == "interleaved instead of half-split"
    assert r["first_divergence"] == {"token": 1, "head": 0, "pair": 0}


def test_position_offset_named_first(x):
    r = posenc.check(LLAMA, x, plan_rotation(x, 11), start=10)
    assert [d["name"] for d in r["diagnoses"]][0] == "position_offset"
    assert "off by +1" in r["diagnoses"][0]["detail"]


def float32_angle_rotation(x, start, w):
    """Hugging Face's float32 path: inv_freq and positions in float32, their product rounded."""
    p = np.arange(start, start + len(x), dtype=np.float32)
    a = np.outer(p, w.astype(np.float32)).astype(np.float32)
    c, s = np.cos(a)[:, None, :], np.sin(a)[:, None, :]
    n = w.size
    x1, x2 = x[..., :n], x[..., n:]
    return np.concatenate([x1 * c - x2 * s, x1 * s + x2 * c], axis=-1).astype(np.float32)


def test_float32_angles_named_first(x):
    w = np.asarray(posenc.load_plan(LLAMA).freqs(0).inv_freq)
    r = posenc.check(LLAMA, x, float32_angle_rotation(x, 200000, w), start=200000)
    assert r["verdict"] == "float32" and r["float32_angles"] == "rounded_freqs" and r["explained"]
    assert r["diagnoses"][0]["name"] == "float32_angles"
    assert r["diagnoses"][0]["max_err"] <= r["bound"]


QWEN3 = FIXTURES / "qwen3-8b.json"


def hf_float32_inv_freq(base, dim):
    """Hugging Face's default inv_freq in float32 (transformers, modeling_rope_utils.py,
    _compute_default_rope_parameters, commit 0044e3b3): 1.0 / (base ** (arange(0, dim, 2).float()
    / dim)). torch's float32 pow is restated as the correctly rounded one (through float64):
    numpy's own float32 power is not correctly rounded on every build."""
    e = np.arange(0, dim, 2).astype(np.float32) / np.float32(dim)
    return np.float32(1) / np.power(np.float64(base), e.astype(np.float64)).astype(np.float32)


def test_hf_float32_recipe_is_verdict_float32(x):
    # Qwen3 (base 1e6, default RoPE): HF's float32 inv_freq, then float32 t * inv_freq
    w = hf_float32_inv_freq(1e6, 128)
    for start in (0, 300000):
        r = posenc.check(QWEN3, x, float32_angle_rotation(x, start, w), start=start)
        assert r["verdict"] == "float32", (start, r["max_abs_err"], r["bound"], r["diagnoses"][:1])
        assert r["float32_angles"] == "powf" and r["diagnoses"][0]["angles"] == "powf"


def test_fault_on_top_of_float32_is_named(x):
    # the same float32 engine one position late: a fault, named with the recipe it rode on
    w = hf_float32_inv_freq(1e6, 128)
    r = posenc.check(QWEN3, x, float32_angle_rotation(x, 300001, w), start=300000)
    assert r["verdict"] == "disagree" and r["explained"]
    d = r["diagnoses"][0]
    assert d["name"] == "position_offset" and d["angles"] == "powf", d
    assert d["detail"] == "positions off by +1 + float32 angles (powf)"


def test_layout_keyword_is_honoured_and_checked(x):
    y = plan_rotation(x, 50, "interleaved")
    r = posenc.check(LLAMA, x, y, start=50, layout="interleaved")
    assert r["verdict"] == "agree" and r["layout"] == "interleaved"
    r = posenc.check(LLAMA, x, y, start=50)
    assert r["verdict"] == "disagree" and r["layout"] == "half"
    assert r["diagnoses"][0]["name"] == "layout"
    with pytest.raises(ValueError, match="layout='bogus'"):
        posenc.check(LLAMA, x, y, start=50, layout="bogus")


def test_nothing_explains_noise(x):
    noise = np.random.default_rng(4).uniform(-1, 1, x.shape).astype(np.float32)
    r = posenc.check(LLAMA, x, noise)
    assert r["verdict"] == "disagree" and not r["explained"]
    assert r["diagnoses"][0]["max_err"] > r["bound"]


def test_cos_sin_cache_with_float16_tables():
    w = np.asarray(posenc.load_plan(LLAMA).freqs(0).inv_freq)
    a = np.outer(np.arange(3000, 3064), w)
    exact = np.concatenate([np.cos(a), np.sin(a)], axis=1)
    assert posenc.check(LLAMA, cos_sin=exact, start=3000)["verdict"] == "agree"
    r = posenc.check(LLAMA, cos_sin=exact.astype(np.float16).astype(np.float32), start=3000)
    assert r["diagnoses"][0]["name"] == "half_precision_tables"


def test_freqs_with_layout_and_errors(x):
    f = posenc.freqs_default(128, 500000.0)
    y = posenc.rope_apply(x, f, layout="half", start=0)
    assert posenc.check(f, x, y, layout="half")["verdict"] == "agree"
    with pytest.raises(TypeError, match="layout"):
        posenc.check(f, x, y)
    with pytest.raises(TypeError, match="x and y"):
        posenc.check(LLAMA, x)
    with pytest.raises(ValueError, match="shape"):
        posenc.check(LLAMA, x, y[:3])
    with pytest.raises(posenc.Error, match="does not rotate"):
        posenc.check(FIXTURES / "llama-4-scout-17b-16e.json", x, y, layer=3)


def test_numpy_float32_power_is_verdict_float32(x):
    # llama2.c's loop in numpy float32 with numpy's own float32 power, which is not correctly
    # rounded on every build (here 9 of 64 frequencies differ from powf's): the frequencies a
    # libm puts a few ulps off are still float32 arithmetic, not a fault
    e = np.arange(0, 128, 2).astype(np.float32) / np.float32(128)
    freq = np.float32(1) / np.power(np.float32(10000.0), e)
    for start in (0, 100000):
        y = x.copy()
        val = np.outer(np.arange(start, start + len(x)).astype(np.float32), freq).astype(np.float32)
        c, s = np.cos(val)[:, None, :], np.sin(val)[:, None, :]
        v0, v1 = x[..., 0::2], x[..., 1::2]
        y[..., 0::2], y[..., 1::2] = v0 * c - v1 * s, v0 * s + v1 * c
        r = posenc.check(FIXTURES / "llama-2-7b.json", x, y, start=start, layout="interleaved")
        assert r["verdict"] == "float32", (start, r["diagnoses"][:1])


def test_hf_torch_rope_is_verdict_float32(x):
    # Hugging Face's own float32 RoPE run in torch: inv_freq as _compute_default_rope_parameters
    # (and _compute_llama3_parameters' blend for Llama 3.1, transformers commit 0044e3b3), then
    # LlamaRotaryEmbedding.forward's float32 inv_freq @ positions, cos/sin, rotate_half. torch's
    # float32 pow is not correctly rounded everywhere and the llama3 blend is float arithmetic:
    # a few frequencies sit 1-3 ulps off the recipe, still float32 arithmetic at 1e5.
    torch = pytest.importorskip("torch")
    import math

    def default_inv_freq(base):
        return 1.0 / (base ** (torch.arange(0, 128, 2, dtype=torch.int64).float() / 128))

    def llama3_inv_freq():  # factor 8, low/high_freq_factor 1/4, original context 8192
        inv_freq = default_inv_freq(500000.0)
        wavelen = 2 * math.pi / inv_freq
        low_wl, high_wl = 8192 / 1.0, 8192 / 4.0
        inv_l = torch.where(wavelen > low_wl, inv_freq / 8.0, inv_freq)
        smooth = (8192 / wavelen - 1.0) / (4.0 - 1.0)
        smoothed = (1 - smooth) * inv_l / 8.0 + smooth * inv_l
        medium = ~(wavelen < high_wl) * ~(wavelen > low_wl)
        return torch.where(medium, smoothed, inv_l)

    for cfg, inv_freq in (("qwen3-8b.json", default_inv_freq(1e6)), ("llama-3.1-8b.json", llama3_inv_freq())):
        for start in (0, 100000):
            pos = torch.arange(start, start + len(x))[None]
            freqs = (inv_freq[None, :, None].float() @ pos[:, None, :].float()).transpose(1, 2)
            emb = torch.cat((freqs, freqs), dim=-1)
            cos, sin = emb.cos()[0][:, None, :], emb.sin()[0][:, None, :]
            q = torch.from_numpy(x)
            rotated = torch.cat((-q[..., 64:], q[..., :64]), dim=-1)
            y = (q * cos + rotated * sin).numpy()
            r = posenc.check(FIXTURES / cfg, x, y, start=start)
            assert r["verdict"] == "float32", (cfg, start, r["max_abs_err"], r["diagnoses"][:1])


def test_family_reads_an_unknown_model_type_on_purpose(x):
    """check's family= is load_plan's: a config whose model_type is not in the registry is
    refused by name; family='llama' reads it as Llama 3.1 (the same keys, so the same
    plan and the same verdict as the fixture itself)."""
    cfg = json.loads(LLAMA.read_text())
    cfg["model_type"] = "brand_new"
    y = plan_rotation(x, 0)
    with pytest.raises(posenc.Error, match="'brand_new' is not in posenc's family registry"):
        posenc.check(cfg, x, y)
    r = posenc.check(cfg, x, y, family="llama")
    assert r["verdict"] == "agree" and r["max_abs_err"] <= r["bound"]
    with pytest.raises(posenc.Error, match="family 'lama' is not in posenc's family registry"):
        posenc.check(LLAMA, x, y, family="lama")
    f = posenc.load_plan(LLAMA).freqs(0)
    with pytest.raises(TypeError, match="a Freqs has none"):
        posenc.check(f, x, y, layout="half", family="llama")
