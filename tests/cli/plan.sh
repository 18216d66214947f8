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
expect plan_qwen3next_linear 0 'linear_attention, no attention \(no positions\)' \
    -- plan --config "$FIX/qwen3-next-80b-a3b-instruct.json"
expect plan_needs_config 2 '--config config.json or --gguf model.gguf is required' -- plan
expect plan_missing_file 1 "cannot open '$TMP/none.json'" -- plan --config "$TMP/none.json"
expect plan_bad_format 2 'format' -- plan --config "$FIX/qwen3-8b.json" --format yaml
expect plan_bad_seq_len 2 '--seq-len must be >= 0' -- plan --config "$FIX/qwen3-8b.json" --seq-len -4
printf '{"model_type":"brand_new","head_dim":64,"rope_theta":1e5,"rope_scaling":{"rope_type":"linear","factor":2,"wobble":1}}' >"$TMP/new.json"
expect plan_warns_unknown_type 0 "^warning: model_type 'brand_new': class defaults unknown; rope_theta read from the file$" \
    -- plan --config "$TMP/new.json"
expect plan_warns_unknown_key 0 "^warning: 'rope_scaling.wobble': not understood; ignored$" -- plan --config "$TMP/new.json"
printf '{"head_dim":64,"num_hidden_layers":3,"layer_types":["full_attention"]}' >"$TMP/short.json"
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
expect plan_gguf_phi3_longrope 0 '^layers 0-31: full_attention, longrope, base 10000, rotary 96 of head_dim 96, half, A 1.1902381181716919, ' \
    -- plan --gguf "$GG/phi-3.5-mini-instruct.gguf"
expect plan_gguf_phi3_f32_predicted 0 '^  layers 0-31: magnitude A: config 1.1902380714238083, gguf 1.1902381181716919 .*; float32 storage explains it \(' \
    -- plan --config "$FIX/phi-3.5-mini-instruct.json" --gguf "$GG/phi-3.5-mini-instruct.gguf"
# the hybrid Qwen3-Next: 48 decoder layers of 49 blocks, linear attention
expect plan_gguf_hybrid 0 '^layers 0-2, 4-6, .*: linear_attention, no attention' \
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
if "$POSENC" plan --config "$FIX/gemma-3-1b-it.json" --gguf "$GG/gemma-3-1b-it.gguf" --format json >"$TMP/both.json" 2>/dev/null &&
    /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["differences"]==[] and d["gguf"]["format"]=="gguf" and d["config"]["num_layers"]==26 and d["gguf"]["layers"][0]["float32_inputs"]=="rope.freq_base_swa"' "$TMP/both.json"; then
    ok plan_gguf_json_both; else bad plan_gguf_json_both "$(head -c 300 "$TMP/both.json")"; fi
printf 'GGUF\3\0\0\0' >"$TMP/short.gguf"
expect plan_gguf_truncated 1 'short.gguf' -- plan --gguf "$TMP/short.gguf"
expect plan_gguf_missing 1 "nope.gguf" -- plan --gguf "$TMP/nope.gguf"
