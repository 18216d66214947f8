# plan.sh — CLI tests of `posenc plan` and of --config ... --layer N in
# `freqs` and `rope`. Sourced by run.sh (uses its expect/ok/bad, $POSENC,
# $TMP and $FIX). Expected numbers are restated from the models' configs,
# not read back from posenc.

# Gemma 3 1B: five sliding layers at base 1e4 per global layer at 1e6.
expect plan_gemma3_groups 0 '^layers 5, 11, 17, 23: full_attention, default, base 1000000, rotary 256 of head_dim 256, half, A 1$' \
    -- plan --config "$FIX/gemma-3-1b-it.json"
expect plan_gemma3_local 0 '^layers 0-4, 6-10, 12-16, 18-22, 24-25: sliding_attention, default, base 10000, .*window 512$' \
    -- plan --config "$FIX/gemma-3-1b-it.json"
expect plan_llama4_nope 0 '^layers 3, 7, .*, 47: full_attention, NoPE, head_dim 128, query x 1 \+ 0\.1 ln\(1 \+ floor\(\(p \+ 1\) / 8192\)\)$' \
    -- plan --config "$FIX/llama-4-scout-17b-16e.json"
expect plan_olmo3_yarn_full_only 0 '^layers 3, 7, .*: full_attention, yarn, base 500000, factor 8, .*A 1\.2079441541679836' \
    -- plan --config "$FIX/olmo-3-7b.json"
expect plan_kimi_softmax 0 'softmax x1\.8132' -- plan --config "$FIX/kimi-k2-instruct.json"
expect plan_qwen3next_linear 0 'linear_attention, no positions \(linear_attention\)$' \
    -- plan --config "$FIX/qwen3-next-80b-a3b-instruct.json"
expect plan_needs_config 2 '--config config.json or --gguf model.gguf is required' -- plan
expect plan_missing_file 1 "cannot open '$TMP/none.json'" -- plan --config "$TMP/none.json"
expect plan_bad_format 2 'format' -- plan --config "$FIX/qwen3-8b.json" --format yaml
expect plan_bad_seq_len 2 '--seq-len must be >= 0' -- plan --config "$FIX/qwen3-8b.json" --seq-len -4
printf '{"model_type":"brand_new","head_dim":64,"rope_theta":1e5,"rope_scaling":{"rope_type":"linear","factor":2,"wobble":1}}' >"$TMP/new.json"
printf '{"head_dim":64}' >"$TMP/notype.json"
# Closed world: an unknown model_type is refused with the nearest records and
# the way on; --family reads the file as a named family on purpose, and keys
# that family does not read stay warnings.
expect plan_refuses_unknown_type 1 "model_type 'brand_new' is not in posenc's family registry \(closest: .*\); .*--family NAME" \
    -- plan --config "$TMP/new.json"
expect plan_refuses_no_type 1 "config has no 'model_type'" -- plan --config "$TMP/notype.json"
# The file states no layer count: read as llama it has LlamaConfig's
# num_hidden_layers default, 32 (configuration_llama.py).
expect plan_family_override 0 "^layers 0-31: full_attention, linear, base 100000, factor 2, rotary 64 of head_dim 64, half" \
    -- plan --config "$TMP/new.json" --family llama
expect plan_warns_unknown_key 0 "^warning: 'rope_scaling.wobble': not understood; ignored$" -- plan --config "$TMP/new.json" --family llama
expect plan_family_unknown 1 "family 'lama' is not in posenc's family registry \(closest: 'llama'" \
    -- plan --config "$TMP/new.json" --family lama
expect plan_family_needs_config 2 '--family NAME needs --config config.json' -- plan --family llama
expect freqs_family 0 '^ +1 +0\.' -- freqs --config "$TMP/new.json" --family llama
expect plan_families_table 0 '^bloom +alibi +models/bloom/' -- plan --families
expect plan_families_conflict 2 '--families lists the registry' -- plan --families --config "$FIX/gpt2.json"
if "$POSENC" plan --families --format json >"$TMP/fam.json" 2>/dev/null &&
    /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); hf={r["model_type"]: r for r in d["hf"]}
assert set(d) == {"hf", "gguf"} and isinstance(d["gguf"], list)
assert hf["falcon"]["kinds"] == ["rope", "alibi"] and hf["t5"]["kinds"] == ["t5"]
assert hf["lfm2"]["kinds"] == ["rope", "none"] and hf["mllama"]["kinds"] == ["rope", "none"] and hf["qwen3_next"]["kinds"] == ["rope", "none"]
assert hf["jamba"]["kinds"] == ["nope", "none"] and hf["whisper"]["refusal"]
assert all(r["source"] for r in d["hf"])' "$TMP/fam.json"; then
    ok plan_families_json; else bad plan_families_json "$(head -c 300 "$TMP/fam.json")"; fi

# Non-RoPE families (real configs): every layer's kind, in the table and JSON.
expect plan_gpt2_learned 0 '^layers 0-11: full_attention, learned absolute table at the input, 1024 rows, offset 0, dim 768, head_dim 64$' \
    -- plan --config "$FIX/gpt2.json"
expect plan_t5_encoder 0 '^layers 0-5: encoder, T5 relative buckets, 32 buckets, max distance 128, bidirectional, bias of layer 0, head_dim 64$' \
    -- plan --config "$FIX/t5-small.json"
expect plan_t5_decoder 0 '^layers 6-11: decoder, T5 relative buckets, 32 buckets, max distance 128, causal, bias of layer 6, head_dim 64$' \
    -- plan --config "$FIX/t5-small.json"
expect plan_falcon_rw_alibi 0 '^layers 0-23: full_attention, ALiBi, 32 heads, Press/BLOOM slopes \(max bias 8\), HF rounds them to bfloat16, head_dim 64$' \
    -- plan --config "$FIX/falcon-rw-1b.json"
expect plan_mpt_learned_pos_emb 0 "^warning: 'learned_pos_emb': HF's MptModel has no learned position table" \
    -- plan --config "$FIX/mpt-7b.json"
expect plan_bloom_offset_alibi 0 "^warning: 'offset_alibi': .*; ignored$" -- plan --config "$FIX/bloom-560m.json"
expect plan_lfm2_conv 0 '^layers 0-1, 3-4, 6-7, 9, 11, 13, 15: conv, no positions \(conv\)$' -- plan --config "$FIX/lfm2-1.2b.json"
expect freqs_refuses_learned 1 "no layer of this config rotates: model_type 'gpt2' has learned positions" \
    -- freqs --config "$FIX/gpt2.json"
expect freqs_refuses_t5_layer 1 'layer 7 \(decoder\) does not rotate: its positions are t5' \
    -- freqs --config "$FIX/t5-small.json" --layer 7
expect freqs_refuses_conv_layer 1 'layer 0 \(conv\) does not rotate: not an attention layer' \
    -- freqs --config "$FIX/lfm2-1.2b.json" --layer 0
# ALiBi slopes: exact = Press et al.'s powers of two; as HF computes them =
# float32 pow of the float32 base (BLOOM, MPT), then bfloat16 (Falcon).
alibiok=1
for case in "bloom-560m.json press float32 16" "falcon-rw-1b.json press bfloat16 32" "mpt-7b.json mpt float32 32"; do
    set -- $case
    if ! "$POSENC" plan --config "$FIX/$1" --format json >"$TMP/alibi.json" 2>"$TMP/alibi.err" ||
        ! /usr/bin/python3 - "$TMP/alibi.json" "$2" "$3" "$4" <<'PY'
import json, math, struct, sys
import numpy as np
d = json.load(open(sys.argv[1])); rule, dtype, H = sys.argv[2], sys.argv[3], int(sys.argv[4])
def bf16(x):  # round-to-nearest-even of a float32 to bfloat16
    b = struct.unpack("<I", struct.pack("<f", x))[0]
    b = (b + 0x7FFF + ((b >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", b))[0]
for L in d["layers"]:
    P = L["position"]
    assert L["rope"] is False and P["kind"] == "alibi" and P["heads"] == H and P["slope_rule"] == rule
    assert P["hf_slope_dtype"] == dtype and P["causal"] is True
    c = 2 ** math.floor(math.log2(H))  # H is a power of two in these three
    exact = [2.0 ** (-8.0 * (h + 1) / c) for h in range(H)]
    assert P["slopes"] == exact, (P["slopes"], exact)
    # As HF computes them: float32 values (then bfloat16 for Falcon), each
    # within 2 float32 ulps of the exact slope; python/tests/test_plan.py
    # pins them bit for bit against HF's own torch arithmetic.
    # float32 error: the base's rounding (2^-24) raised to the head's power
    # k <= H, plus the result's rounding.
    for h, (got, want) in enumerate(zip(P["hf_slopes"], exact)):
        if dtype == "bfloat16":
            assert bf16(got) == got and abs(got - want) <= 2.0 ** -8 * want, (got, want)
        else:
            assert float(np.float32(got)) == got and abs(got - want) <= (h + 3) * 2.0 ** -24 * want, (got, want)
PY
    then alibiok=0; bad "plan_alibi_slopes_$1" "$(head -c 300 "$TMP/alibi.err")"; fi
done
[ "$alibiok" = 1 ] && ok plan_alibi_slopes
printf '{"model_type":"llama","head_dim":64,"num_hidden_layers":3,"layer_types":["full_attention"]}' >"$TMP/short.json"
expect plan_contradiction 1 "'layer_types' has 1 entries but num_hidden_layers=3" -- plan --config "$TMP/short.json"

# JSON: every fixture parses; Gemma 3's layers checked against 1e4 / 1e6 powers.
jsonok=1
for f in "$FIX"/*.json; do
    if ! "$POSENC" plan --config "$f" --format json >"$TMP/plan.json" 2>"$TMP/plan.err" ||
        ! /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["num_layers"]==len(d["layers"])' "$TMP/plan.json"; then
        jsonok=0; bad "plan_json_$(basename "$f")" "$(head -c 300 "$TMP/plan.err")"
    fi
done
[ "$jsonok" = 1 ] && ok plan_json_every_fixture
if "$POSENC" plan --config "$FIX/gemma-3-1b-it.json" --format json >"$TMP/g3.json" 2>/dev/null &&
    /usr/bin/python3 - "$TMP/g3.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["model_type"] == "gemma3_text" and d["num_layers"] == 26 and d["warnings"] == []
for L in d["layers"]:
    full = (L["layer"] + 1) % 6 == 0
    assert L["layer_type"] == ("full_attention" if full else "sliding_attention")
    assert L["rope"] is True and L["rope_type"] == "default" and L["layout"] == "half"
    assert L["sliding_window"] == (None if full else 512)
    base = 1e6 if full else 1e4
    assert len(L["inv_freq"]) == 128
    for i, w in enumerate(L["inv_freq"]):
        want = base ** (-2 * i / 256)
        assert abs(w - want) <= 4e-16 * want, (L["layer"], i, w, want)
    assert L["attention_factor"] == 1.0 and L["softmax_scale_multiplier"] == 1.0
PY
then ok plan_json_gemma3_values; else bad plan_json_gemma3_values "the JSON plan of Gemma 3 1B is wrong"; fi
if "$POSENC" plan --config "$FIX/llama-4-scout-17b-16e.json" --format json >"$TMP/l4.json" 2>/dev/null &&
    /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); L=d["layers"]
assert L[3]["rope"] is False and L[3]["inv_freq"]==[] and L[3]["query_scale"]=={"beta":0.1,"span":8192,"offset":1}
assert L[0]["chunk_size"]==8192 and L[0]["layout"]=="interleaved" and L[0]["query_scale"] is None' "$TMP/l4.json"; then
    ok plan_json_llama4_nope; else bad plan_json_llama4_nope "$(head -c 300 "$TMP/l4.json")"; fi

# --layer: the single-RoPE commands refuse mixed layers and take one layer.
expect freqs_config_mixed_layers 1 'the layers differ: sliding_attention \(22 layers from 0: default base 10000\), full_attention \(4 layers from 5: default base 1e\+06\); ask for a layer \(pe_plan_layer_freqs, --layer N\)' \
    -- freqs --config "$FIX/gemma-3-1b-it.json"
expect freqs_config_layer_global 0 '^ +1 +0\.8976871324473142[0-9]* +0\.8976871324473142[0-9]* ' \
    -- freqs --config "$FIX/gemma-3-1b-it.json" --layer 5
expect freqs_config_layer_local 0 '^ +1 +0\.9305720409296990[0-9]* ' -- freqs --config "$FIX/gemma-3-1b-it.json" --layer 0
expect freqs_config_layer_proportional 0 '"rope_type": "proportional", "head_dim": 512, "rotary_dim": 512' \
    -- freqs --config "$FIX/gemma-4-e2b-it.json" --layer 4 --format json
expect freqs_layer_range 2 '--layer 26: .*gemma-3-1b-it.json has layers 0 to 25' -- freqs --config "$FIX/gemma-3-1b-it.json" --layer 26
expect freqs_layer_nope 1 'layer 3 \(full_attention\) does not rotate: a NoPE layer' -- freqs --config "$FIX/smollm3-3b.json" --layer 3
expect freqs_layer_needs_config 2 '--layer N needs --config config.json' -- freqs --head-dim 64 --layer 2
if "$POSENC" rope --in "$TMP/x256.npy" --out "$TMP/g_local.npy" --config "$FIX/gemma-3-1b-it.json" --layer 0 --start 3 >/dev/null 2>&1 &&
    "$POSENC" rope --in "$TMP/x256.npy" --out "$TMP/g_ref.npy" --head-dim 256 --base 10000 --layout half --start 3 >/dev/null 2>&1 &&
    cmp -s "$TMP/g_local.npy" "$TMP/g_ref.npy" &&
    "$POSENC" rope --in "$TMP/x256.npy" --out "$TMP/g_global.npy" --config "$FIX/gemma-3-1b-it.json" --layer 5 --start 3 >/dev/null 2>&1 &&
    ! cmp -s "$TMP/g_global.npy" "$TMP/g_ref.npy"; then
    ok rope_config_layer; else bad rope_config_layer "rope --layer 0 of Gemma 3 is not default RoPE at base 1e4 (or layer 5 is)"; fi
expect rope_config_mixed_layers 1 'the layers differ' -- rope --in "$TMP/x256.npy" --out "$TMP/g.npy" --config "$FIX/gemma-3-1b-it.json" --start 0

# --gguf: files written by llama.cpp's own converter (tests/fixtures/gguf,
# README there), and one written here by a few lines of Python for the
# model the converter could not write (header and metadata only).
GG=$(cd "$FIX/../gguf" && pwd)
expect plan_gguf_alone 0 '^layers 5, 11, 17, 23: full_attention, default, base 1000000, rotary 256 of head_dim 256, half, A 1, float32: rope.freq_base$' \
    -- plan --gguf "$GG/gemma-3-1b-it.gguf"
expect plan_gguf_matches_config 0 '^differences \(config vs gguf\): 0$' \
    -- plan --config "$FIX/gemma-3-1b-it.json" --gguf "$GG/gemma-3-1b-it.gguf"
# Phi-3.5: no scaling type in the file; LongRoPE from its factor tensors and
# rope.scaling.attn_factor (float32 of sqrt(1 + ln 32 / ln 4096))
expect plan_gguf_phi3_longrope 0 '^layers 0-31: full_attention, longrope, base 10000, original_max_position 4096, .*, rotary 96 of head_dim 96, half, A 1.1902381181716919, ' \
    -- plan --gguf "$GG/phi-3.5-mini-instruct.gguf"
expect plan_gguf_phi3_f32_predicted 0 '^  layers 0-31: magnitude A: config 1.1902380714238083, gguf 1.1902381181716919 .*; float32 storage explains it \(' \
    -- plan --config "$FIX/phi-3.5-mini-instruct.json" --gguf "$GG/phi-3.5-mini-instruct.gguf"
# the hybrid Qwen3-Next: 48 decoder layers of 49 blocks, linear attention
expect plan_gguf_hybrid 0 '^layers 0-2, 4-6, .*: linear_attention, no positions \(linear_attention\)$' \
    -- plan --gguf "$GG/qwen3-next-80b-a3b-instruct.gguf"
mkgguf() { # OUT ARCH then KEY=TYPE:VALUE ...
    /usr/bin/python3 - "$@" <<'PY'
import struct, sys
out, arch, items = sys.argv[1], sys.argv[2], sys.argv[3:]
def s(b): return struct.pack("<Q", len(b)) + b
kv = [s(b"general.architecture") + struct.pack("<I", 8) + s(arch.encode())]
for it in items:
    key, tv = it.split("=", 1)
    t, v = tv.split(":", 1)
    key = key.replace("@", arch).encode()
    if t == "u32": kv.append(s(key) + struct.pack("<II", 4, int(v)))
    elif t == "f32": kv.append(s(key) + struct.pack("<If", 6, float(v)))
    elif t == "str": kv.append(s(key) + struct.pack("<I", 8) + s(v.encode()))
data = b"GGUF" + struct.pack("<IQQ", 3, 0, len(kv)) + b"".join(kv)
open(out, "wb").write(data)
PY
}
# HunYuan: llama.cpp folds alpha into freq_base, stored as float32 (11158840,
# not 11158839.925...): the frequencies move by up to (b32/b)^(-126/128) - 1,
# which the comparison predicts from the config's base rounded to float32.
B32=$(/usr/bin/python3 -c 'import struct; b=10000*1000**(128/126); print(repr(struct.unpack("<f", struct.pack("<f", b))[0]))')
REL=$(/usr/bin/python3 -c "b=10000*1000**(128/126); print('%.3g' % abs(($B32/b)**(-126/128)-1))")
mkgguf "$TMP/hy.gguf" hunyuan-dense @.block_count=u32:32 @.embedding_length=u32:4096 @.attention.head_count=u32:32 \
    @.attention.key_length=u32:128 "@.rope.freq_base=f32:$B32" @.rope.scaling.factor=f32:1
expect plan_gguf_float32_base 0 "^  layers 0-31: inv_freq differ by up to $REL relative .*float32 storage explains it \(rope.freq_base\)$" \
    -- plan --config "$FIX/hy-mt2-7b.json" --gguf "$TMP/hy.gguf"
mkgguf "$TMP/lama.gguf" lama @.block_count=u32:2
expect plan_gguf_unknown_arch 1 "GGUF architecture 'lama' is not in posenc's llama.cpp registry \(closest: 'llama', " \
    -- plan --gguf "$TMP/lama.gguf"
# a GGUF read as a named llama.cpp architecture on purpose: Qwen3-VL's file
# as qwen2vl (blocked sections; --family names the config when both are given)
expect plan_gguf_family_alone 0 'mrope_section \[24,20,20\], float32' \
    -- plan --gguf "$GG/qwen3-vl-8b-instruct.gguf" --family qwen2vl
# the "gguf" half of --families: one entry per llama.cpp architecture
if "$POSENC" plan --families --format json >"$TMP/fam.json" 2>/dev/null &&
    /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); g={e["arch"]: e for e in d["gguf"]}
assert len(g) == len(d["gguf"]) == 145, len(d["gguf"])
assert g["llama"]["rope_type"] == "norm" and g["qwen35moe"]["rope_type"] == "imrope" and g["glm4"]["rope_type"] == "mrope|norm"
assert g["bloom"]["kind"] == "alibi" and g["gpt2"]["kind"] == "learned" and g["wavtokenizer-dec"]["refusal"] and g["jamba"]["refusal"] is None
assert g["phi3"]["source"].startswith("src/llama-model.cpp:") and g["phi3"]["refusal"] is None' "$TMP/fam.json"; then
    ok plan_families_gguf; else bad plan_families_gguf "$(head -c 300 "$TMP/fam.json")"; fi
if "$POSENC" plan --config "$FIX/gemma-3-1b-it.json" --gguf "$GG/gemma-3-1b-it.gguf" --format json >"$TMP/both.json" 2>/dev/null &&
    /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["differences"]==[] and d["gguf"]["format"]=="gguf" and d["config"]["num_layers"]==26 and d["gguf"]["layers"][0]["float32_inputs"]=="rope.freq_base_swa"' "$TMP/both.json"; then
    ok plan_gguf_json_both; else bad plan_gguf_json_both "$(head -c 300 "$TMP/both.json")"; fi
printf 'GGUF\3\0\0\0' >"$TMP/short.gguf"
expect plan_gguf_truncated 1 'short.gguf' -- plan --gguf "$TMP/short.gguf"
expect plan_gguf_missing 1 "nope.gguf" -- plan --gguf "$TMP/nope.gguf"

# The README states the registry's size (its "Per-layer plans" paragraph):
# those numbers are the registry's, counted from `plan --families`.
fam=$("$POSENC" plan --families --format json)
hf_all=$(grep -c '"model_type": ' <<<"$fam")
hf_modelled=$(grep -c '"model_type": .*"refusal": null}' <<<"$fam")
gguf_all=$(grep -c '"arch": ' <<<"$fam")
readme="$(dirname "$0")/../../README.md"
if grep -q "transformers ($hf_all records: $hf_modelled modelled, the rest refused" "$readme" &&
   grep -q "and $gguf_all llama.cpp architectures" "$readme"; then
    ok readme_registry_counts
else
    bad readme_registry_counts "README does not say $hf_all records, $hf_modelled modelled, $gguf_all llama.cpp architectures"
fi
