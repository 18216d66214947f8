"""Frequency generators and config files against float64 restatements of the formulas
(Hugging Face's rope_init_fns written in numpy), and the Freqs type's validation."""
import decimal
import json
import math
import pathlib

import numpy as np
import pytest

import posenc
import reference as ref

FIXTURES = pathlib.Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "configs"


def test_default_frequencies_are_double_double_exact():
    d, base = 128, 500000.0
    f = posenc.freqs_default(d, base)
    assert f.rotary_dim == d and f.attention_factor == 1.0 and f.softmax_scale_multiplier == 1.0
    np.testing.assert_allclose(f.inv_freq, ref.default_omega(d, base), rtol=4e-16, atol=0)
    # hi + lo against w_i = exp(-(2i/d) ln b) to 40 digits. The library forms the
    # argument (|.| <= ln b ~ 13.1) in long double, so exp inherits ~|arg| 2^-64 of
    # relative error: <= 2^-59 with room, and 16x finer than double's 2^-53 (lo matters)
    ctx = decimal.Context(prec=40)
    ln_b = ctx.ln(decimal.Decimal(base))
    worst = 0.0
    for i in range(d // 2):
        exact = ctx.exp(ctx.multiply(decimal.Decimal(-2 * i) / decimal.Decimal(d), ln_b))
        got = decimal.Decimal(float(f.inv_freq[i])) + decimal.Decimal(float(f.inv_freq_lo[i]))
        worst = max(worst, float(abs(got - exact) / exact))
    assert worst <= 2.0**-59, worst


def test_linear_ntk_dynamic():
    d, base = 64, 10000.0
    w = ref.default_omega(d, base)
    f = posenc.freqs_from_scaling("linear", d, factor=4.0)
    np.testing.assert_allclose(f.inv_freq, w / 4.0, rtol=4e-16, atol=0)
    f = posenc.freqs_from_scaling("ntk", d, factor=4.0)
    np.testing.assert_allclose(f.inv_freq, ref.default_omega(d, base * 4.0 ** (d / (d - 2))), rtol=1e-14)
    # dynamic: default until the sequence outgrows max_position, then a larger base
    f = posenc.freqs_from_scaling("dynamic", d, factor=2.0, max_position=2048, seq_len=2048)
    assert np.array_equal(f.inv_freq, posenc.freqs_default(d).inv_freq)
    s = 6000
    f = posenc.freqs_from_scaling("dynamic", d, factor=2.0, max_position=2048, seq_len=s)
    b2 = base * ((2.0 * s / 2048) - 1.0) ** (d / (d - 2))
    np.testing.assert_allclose(f.inv_freq, ref.default_omega(d, b2), rtol=1e-14)


def hf_llama3(d, base, factor, low, high, l0):
    inv = ref.default_omega(d, base)
    low_wl, high_wl = l0 / low, l0 / high
    wl = 2 * math.pi / inv
    llama = np.where(wl > low_wl, inv / factor, inv)
    smooth = (l0 / wl - low) / (high - low)
    smoothed = (1 - smooth) * llama / factor + smooth * llama
    medium = ~(wl < high_wl) & ~(wl > low_wl)
    return np.where(medium, smoothed, llama)


def test_llama3_matches_hf():
    f = posenc.freqs_from_scaling("llama3", 128, base=500000.0, factor=8.0, original_max_position=8192)
    np.testing.assert_allclose(f.inv_freq, hf_llama3(128, 500000.0, 8.0, 1.0, 4.0, 8192), rtol=1e-13)
    assert f.attention_factor == 1.0
    w = f.interp_weight
    assert w.shape == (64,) and w[0] == 1.0 and w[-1] == 0.0 and np.all((w >= 0) & (w <= 1))


def hf_yarn(d, base, factor, l0, beta_fast=32, beta_slow=1, truncate=True):
    pos_freqs = base ** (np.arange(0, d, 2) / d)
    extrap, interp = 1.0 / pos_freqs, 1.0 / (factor * pos_freqs)

    def corr(beta):
        return (d * math.log(l0 / (beta * 2 * math.pi))) / (2 * math.log(base))

    low, high = corr(beta_fast), corr(beta_slow)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, d - 1)
    if low == high:
        high += 0.001
    ramp = np.clip((np.arange(d // 2) - low) / (high - low), 0, 1)
    extrap_factor = 1 - ramp
    return interp * (1 - extrap_factor) + extrap * extrap_factor, (low, high)


def test_yarn_matches_hf_and_spec_facts():
    assert posenc.yarn_correction_range(128, 10000.0, 2048) == (16.0, 41.0)
    low, high = posenc.yarn_correction_range(64, 150000.0, 4096, truncate=False)
    assert low == pytest.approx(8.092779115512402, rel=1e-15)
    assert high == pytest.approx(17.39802450158856, rel=1e-15)
    f = posenc.freqs_from_scaling("yarn", 128, factor=10.0, original_max_position=2048)
    want, _ = hf_yarn(128, 10000.0, 10.0, 2048)
    np.testing.assert_allclose(f.inv_freq, want, rtol=1e-13)
    np.testing.assert_allclose(f.attention_factor, 0.1 * math.log(10.0) + 1.0, rtol=1e-15)
    f = posenc.freqs_from_scaling("yarn", 64, factor=4.0, original_max_position=4096, attention_factor=1.5)
    assert f.attention_factor == 1.5


def test_longrope_and_explicit():
    d = 8
    short, long = [1.0, 1.5, 2.0, 3.0], [2.0, 4.0, 8.0, 16.0]
    f = posenc.freqs_from_scaling("longrope", d, original_max_position=4096, max_position=131072,
                                  short_factor=short, long_factor=long, seq_len=100)
    np.testing.assert_allclose(f.inv_freq, ref.default_omega(d) / np.array(short), rtol=1e-15)
    np.testing.assert_allclose(f.attention_factor, math.sqrt(1 + math.log(32) / math.log(4096)), rtol=1e-15)
    f = posenc.freqs_from_scaling("longrope", d, original_max_position=4096, max_position=131072,
                                  short_factor=short, long_factor=long, seq_len=5000)
    np.testing.assert_allclose(f.inv_freq, ref.default_omega(d) / np.array(long), rtol=1e-15)
    f = posenc.freqs_from_scaling("explicit", d, divisors=np.array([1.0, 2.0, 3.0, 4.0]))
    np.testing.assert_allclose(f.inv_freq, ref.default_omega(d) / np.array([1, 2, 3, 4]), rtol=1e-15)
    with pytest.raises(posenc.Error, match="divisors"):
        posenc.freqs_from_scaling("explicit", d, divisors=[1.0, 2.0])
    with pytest.raises(ValueError, match="rope_type='fancy'"):
        posenc.freqs_from_scaling("fancy", d)


def test_freqs_constructor_validates():
    f = posenc.Freqs([1.0, 0.5], attention_factor=2.0)
    assert f.rotary_dim == 4 and f.attention_factor == 2.0
    assert np.array_equal(f.inv_freq_lo, [0.0, 0.0])
    with pytest.raises(posenc.Error, match=r"inv_freq\[1\]=-1 must be finite and >= 0"):
        posenc.Freqs([1.0, -1.0])
    with pytest.raises(posenc.Error, match="attention_factor=0"):
        posenc.Freqs([1.0], attention_factor=0.0)
    with pytest.raises(ValueError, match=r"inv_freq_lo has shape \(1,\), want \(2,\)"):
        posenc.Freqs([1.0, 0.5], inv_freq_lo=[0.0])
    with pytest.raises(TypeError, match="must hold real numbers"):
        posenc.Freqs(["a"])
    with pytest.raises(posenc.Error, match="rotary_dim=3"):
        posenc.freqs_default(3)


def test_config_llama31_gives_llama3_frequencies(tmp_path):
    text = (FIXTURES / "llama-3.1-8b.json").read_text()
    cfg = posenc.parse_config(text)
    assert cfg.model_type == "llama" and cfg.rope_type == "llama3"
    assert cfg.layout == "half" and cfg.layout_known
    assert cfg.head_dim == 128 and cfg.rotary_dim == 128 and cfg.base == 500000.0
    sc = cfg.scaling()
    assert sc["factor"] == 8.0 and sc["original_max_position"] == 8192
    f = cfg.freqs()
    want = posenc.freqs_from_scaling("llama3", 128, base=500000.0, factor=8.0, original_max_position=8192,
                                     low_freq_factor=1.0, high_freq_factor=4.0)
    assert np.array_equal(f.inv_freq, want.inv_freq) and np.array_equal(f.inv_freq_lo, want.inv_freq_lo)
    p = tmp_path / "config.json"
    p.write_text(text)
    assert np.array_equal(posenc.read_config(p).freqs().inv_freq, f.inv_freq)
    assert "llama3" in repr(cfg)


def test_config_scaling_dict_is_the_table_and_goes_back_in():
    """cfg.scaling() holds what the scheme reads, by freqs_from_scaling's
    keywords: fed back, every single-RoPE fixture gives its own frequencies."""
    names = {p["name"] for p in posenc.scaling_params()}
    tried = set()
    for path in sorted(FIXTURES.glob("*.json")):
        try:
            cfg = posenc.read_config(path)
        except posenc.Error:
            continue  # per-layer configs: the plan's business
        d = cfg.scaling()
        schemes = {s["name"]: s for s in posenc.scaling_schemes()}
        assert set(d) - {"rope_type", "head_dim", "rotary_dim", "base"} == set(schemes[d["rope_type"]]["params"])
        assert set(d) - {"rope_type", "head_dim", "rotary_dim", "base"} <= names
        want = cfg.freqs()
        got = posenc.freqs_from_scaling(d.pop("rope_type"), d.pop("head_dim"), **d)
        assert np.array_equal(got.inv_freq, want.inv_freq), path.name
        assert got.attention_factor == want.attention_factor, path.name
        tried.add(cfg.rope_type)
    assert {"llama3", "yarn", "longrope", "default"} <= tried, tried


def test_config_layouts_and_errors(tmp_path):
    gptj = posenc.read_config(str(FIXTURES / "gpt-j-6b.json"))
    assert gptj.layout == "interleaved" and gptj.rotary_dim == 64
    with pytest.raises(posenc.FormatError, match="rope_theta|JSON|json"):
        posenc.parse_config('{"model_type": "llama", "rope_theta": "big", "hidden_size": 64, "num_attention_heads": 2}')
    with pytest.raises(posenc.FileError) as e:
        posenc.read_config(tmp_path / "missing.json")
    assert isinstance(e.value, OSError) and e.value.status == -9
    cfg = json.loads((FIXTURES / "llama-3.1-8b.json").read_text())
    cfg["rope_scaling"]["rope_type"] = "mystery"
    with pytest.raises(posenc.FormatError, match="mystery"):
        posenc.parse_config(json.dumps(cfg))


# A valid value per scheme parameter, written here (not read from the
# library); a parameter added to the table later gets one by its kind.
VALID_PARAMS = dict(factor=2.0, original_max_position=64, max_position=256, seq_len=100,
                    beta_fast=16.0, beta_slow=2.0, truncate=False, mscale=1.0, mscale_all_dim=0.5,
                    attention_factor=1.25, low_freq_factor=1.0, high_freq_factor=4.0,
                    short_factor=[1.0] * 8, long_factor=[2.0] * 8, divisors=[3.0] * 8)


def test_every_scheme_takes_every_parameter_it_reads():
    schemes = posenc.scaling_schemes()
    names = [s["name"] for s in schemes]
    assert len(set(names)) == len(names) and {"default", "yarn", "llama3", "longrope"} <= set(names)
    doc = posenc.freqs_from_scaling.__doc__
    kinds = {p["name"]: p["kind"] for p in posenc.scaling_params()}
    by_kind = dict(real=2.0, int=64, bool=True, list=[1.5] * 8)
    assert set(VALID_PARAMS) <= set(kinds)
    for s in schemes:
        assert s["help"] and f"'{s['name']}'" in doc
        for p in s["params"]:
            VALID_PARAMS.setdefault(p, by_kind[kinds[p]])
            assert f"{p}=None" in doc
        kw = {p: VALID_PARAMS[p] for p in s["params"]}
        f = posenc.freqs_from_scaling(s["name"], 16, **kw)
        assert f.rotary_dim == 16 and np.all(np.isfinite(f.inv_freq))
        # each one alone is a keyword the binding knows (a library refusal is
        # fine: some need the others; an unknown keyword would be TypeError)
        for p in s["params"]:
            try:
                posenc.freqs_from_scaling(s["name"], 16, **{p: VALID_PARAMS[p]})
            except posenc.Error:
                pass
    with pytest.raises(TypeError, match="invalid keyword"):
        posenc.freqs_from_scaling("yarn", 16, beta_fastest=1.0)
    # the keyword is stored: llama3's bands move with high_freq_factor
    a = posenc.freqs_from_scaling("llama3", 128, factor=8.0, original_max_position=8192)
    b = posenc.freqs_from_scaling("llama3", 128, factor=8.0, original_max_position=8192,
                                  high_freq_factor=2.0)
    assert not np.array_equal(a.inv_freq, b.inv_freq)


def test_read_config_and_parse_config_take_family(tmp_path):
    """Issue #25's "how to go on" for RopeConfig: a model_type outside the registry is
    refused naming the closest families; family= reads the file as one on purpose (the
    class defaults and rules then are that family's: LlamaConfig rope_theta 10000 and
    half-split pairs; GPT-J's rotate_every_two pairs interleaved, as in transformers'
    configuration_llama.py / modeling_gptj.py)."""
    text = json.dumps({"model_type": "brand_new", "hidden_size": 256, "num_attention_heads": 4})
    p = tmp_path / "config.json"
    p.write_text(text)
    for call in (lambda **k: posenc.read_config(p, **k), lambda **k: posenc.parse_config(text, **k)):
        with pytest.raises(posenc.Error, match="'brand_new' is not in posenc's family registry"):
            call()
        with pytest.raises(posenc.Error, match="family 'lama' is not in posenc's family registry.*'llama'"):
            call(family="lama")
        cfg = call(family="llama")
        assert cfg.model_type == "llama" and cfg.base == 10000.0 and cfg.head_dim == 64
        assert cfg.layout == "half"
        assert call(family="gptj").layout == "interleaved"
    # family=None is the config's own model_type, as without the keyword.
    llama = FIXTURES / "llama-3.1-8b.json"
    assert np.array_equal(posenc.read_config(llama, family=None).freqs().inv_freq,
                          posenc.read_config(llama).freqs().inv_freq)
    with pytest.raises(TypeError):
        posenc.read_config(p, family=3)
