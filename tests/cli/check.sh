# check.sh — CLI tests of `posenc check`. Sourced by run.sh (uses its
# expect/ok/bad, $POSENC, $TMP and $FIX). The dumps are made by `posenc rope`
# (a correct engine, or one given the wrong layout, base, positions or no
# scaling) and by numpy (16-bit storage, cos/sin caches with exact or float32
# angles); each fault must be named first. tests/test_check.c covers every
# diagnosis through the library.
PY=/usr/bin/python3
CK="$TMP/check"
mkdir -p "$CK"
LLAMA="$FIX/llama-3.1-8b.json"
GEMMA="$FIX/gemma-3-1b-it.json"
"$PY" -c '
import numpy as np, sys
r = np.random.default_rng(18)
np.save(sys.argv[1] + "/x.npy", r.uniform(-1, 1, (64, 4, 128)).astype(np.float32))
np.save(sys.argv[1] + "/g.npy", r.uniform(-1, 1, (48, 2, 256)).astype(np.float32))
np.save(sys.argv[1] + "/wide.npy", np.zeros((8, 256), np.float32))
' "$CK"
rope() { "$POSENC" rope "$@" >/dev/null 2>&1 || bad "check_setup" "posenc rope $*"; }
rope --config "$LLAMA" --in "$CK/x.npy" --out "$CK/y.npy" --start 0
rope --config "$LLAMA" --layout interleaved --in "$CK/x.npy" --out "$CK/y_layout.npy" --start 0
rope --config "$LLAMA" --in "$CK/x.npy" --out "$CK/y_off.npy" --start 1
rope --base 500000 --layout half --in "$CK/x.npy" --out "$CK/y_noscale.npy" --start 0
rope --config "$GEMMA" --layer 5 --in "$CK/g.npy" --out "$CK/g_global.npy" --start 0

# first_name FILE: the first diagnosis's name in a JSON report
first_name() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["diagnoses"][0]["name"] if d["diagnoses"] else "-")' "$1"; }

expect check_help 0 '"verdict": "agree"\|"float32"\|"disagree"' -- check --help
expect check_help_names 0 'half_precision_tables' -- check --help
expect check_agree 0 '^verdict: agree \(max \|error\| .* <= bound' \
    -- check --config "$LLAMA" --in "$CK/x.npy" --out "$CK/y.npy" --start 0
expect check_layout 1 '^ +1\. layout +[0-9.e-]+ +interleaved instead of half-split \[explains' \
    -- check --config "$LLAMA" --in "$CK/x.npy" --out "$CK/y_layout.npy" --start 0
expect check_offset 1 '^ +1\. position_offset .*positions off by \+1' \
    -- check --config "$LLAMA" --in "$CK/x.npy" --out "$CK/y_off.npy" --start 0
expect check_scaling_missing 1 '^ +1\. scaling_missing .*no scaling applied \(the plan: llama3 factor 8\)' \
    -- check --config "$LLAMA" --in "$CK/x.npy" --out "$CK/y_noscale.npy" --start 0
expect check_gemma_layer_base 1 '^ +1\. base .*base 1000000 instead of 10000' \
    -- check --config "$GEMMA" --layer 0 --in "$CK/g.npy" --out "$CK/g_global.npy" --start 0
expect check_gemma_global_layer_agrees 0 '^verdict: agree' \
    -- check --config "$GEMMA" --layer 5 --in "$CK/g.npy" --out "$CK/g_global.npy" --start 0
expect check_first_divergence 1 '^first divergence: token 1, head 0, pair 0$' \
    -- check --config "$LLAMA" --in "$CK/x.npy" --out "$CK/y_layout.npy" --start 0
# --gguf: Gemma 3 1B as llama.cpp's converter writes it ($GG, set by plan.sh).
expect check_gguf_layer_base 1 '^ +1\. base .*base 1000000 instead of 10000' \
    -- check --gguf "$GG/gemma-3-1b-it.gguf" --layer 0 --in "$CK/g.npy" --out "$CK/g_global.npy" --start 0
expect check_gguf_global_agrees 0 '^verdict: agree' \
    -- check --gguf "$GG/gemma-3-1b-it.gguf" --layer 5 --in "$CK/g.npy" --out "$CK/g_global.npy" --start 0

# --family, as posenc plan's: a model_type outside the registry is refused by name with
# the way on; --family reads the file as that family on purpose (Llama 3.1's keys under an
# unknown model_type: the fixture's own plan, so the correct dump agrees).
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); d["model_type"]="brand_new"; json.dump(d, open(sys.argv[2],"w"))' \
    "$LLAMA" "$CK/brand_new.json"
expect check_refuses_unknown_type 1 "model_type 'brand_new' is not in posenc's family registry \(closest: .*\); .*--family NAME" \
    -- check --config "$CK/brand_new.json" --in "$CK/x.npy" --out "$CK/y.npy" --start 0
expect check_family_override 0 '^verdict: agree' \
    -- check --config "$CK/brand_new.json" --family llama --in "$CK/x.npy" --out "$CK/y.npy" --start 0
expect check_family_unknown 1 "family 'lama' is not in posenc's family registry \(closest: 'llama'" \
    -- check --config "$LLAMA" --family lama --in "$CK/x.npy" --out "$CK/y.npy" --start 0
# --gguf with --family: read as that llama.cpp architecture on purpose. llama.cpp runs LLAMA
# with NORM (adjacent) pairs, so Gemma 3's half-split layer-5 dump is then the other layout.
expect check_gguf_family 1 '^ +1\. layout +[0-9.e-]+ +half-split instead of interleaved' \
    -- check --gguf "$GG/gemma-3-1b-it.gguf" --family llama --layer 5 --in "$CK/g.npy" --out "$CK/g_global.npy" --start 0
# The same option, in the same words, as posenc plan's.
plan_line=$("$POSENC" plan --help | grep -E '^ +--family NAME')
check_line=$("$POSENC" check --help | grep -E '^ +--family NAME')
if [ -n "$plan_line" ] && [ "$plan_line" = "$check_line" ]; then ok check_family_help_as_plan
else bad check_family_help_as_plan "plan: '$plan_line' check: '$check_line'"; fi

# The JSON contract: exactly these keys, best diagnosis first.
if "$POSENC" check --config "$LLAMA" --in "$CK/x.npy" --out "$CK/y_layout.npy" --start 0 --format json \
    >"$CK/layout.json"; [ $? -eq 1 ] && "$PY" - "$CK/layout.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "disagree"
assert {"verdict", "float32_angles", "explained", "layout", "max_abs_err", "bound", "first_divergence",
        "diagnoses", "growth"} == set(d)
assert d["float32_angles"] is None and d["explained"] is True and d["layout"] == "half"
assert d["max_abs_err"] > d["bound"] > 0
assert d["first_divergence"] == {"token": 1, "head": 0, "pair": 0}
names = [g["name"] for g in d["diagnoses"]]
vocab = {"layout", "partial_rotary", "base", "scaling_missing", "scaling_type", "yarn_truncate",
         "magnitude", "position_offset", "float32_angles", "mrope_axes", "half_precision_tables",
         "pairs_unrotated"}
assert names[0] == "layout" and set(names) <= vocab and len(set(names)) == len(names)
assert all(set(g) == {"name", "residual", "detail", "layout", "angles"} for g in d["diagnoses"])
assert d["diagnoses"][0]["layout"] == "interleaved" and d["diagnoses"][0]["angles"] == "exact"
r = [g["residual"] for g in d["diagnoses"]]
assert r == sorted(r)
PY
then ok check_json_contract; else bad check_json_contract "$(head -c 300 "$CK/layout.json")"; fi
if "$POSENC" check --config "$LLAMA" --in "$CK/x.npy" --out "$CK/y.npy" --start 0 --format json >"$CK/ok.json" &&
    "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["verdict"]=="agree" and d["first_divergence"] is None and d["diagnoses"]==[] and d["max_abs_err"]<=d["bound"]' "$CK/ok.json"; then
    ok check_json_agree; else bad check_json_agree "$(head -c 300 "$CK/ok.json")"; fi

# 16-bit storage: a correct engine rounds its f32 result once; positions as a list.
"$PY" - "$CK" <<'PY'
import numpy as np, sys
d = sys.argv[1]
x = np.load(d + "/x.npy").astype(np.float16)
np.save(d + "/x16.npy", x)
np.save(d + "/x16as32.npy", x.astype(np.float32))
np.save(d + "/pos.npy", np.arange(1000, 1064, dtype=np.int64))
PY
rope --config "$LLAMA" --in "$CK/x16as32.npy" --out "$CK/y16as32.npy" --positions "$CK/pos.npy"
"$PY" -c 'import numpy as np,sys; np.save(sys.argv[2], np.load(sys.argv[1]).astype(np.float16))' "$CK/y16as32.npy" "$CK/y16.npy"
expect check_f16_agrees 0 '^verdict: agree' \
    -- check --config "$LLAMA" --in "$CK/x16.npy" --out "$CK/y16.npy" --positions "$CK/pos.npy"

# bf16 dumps in one-tensor safetensors files (written here by hand: header length, JSON, bytes),
# the rotation of the bf16 inputs rounded once to nearest even.
"$PY" - "$CK" <<'PY'
import json, struct, numpy as np, sys
d = sys.argv[1]
def bf16(a):
    u = np.ascontiguousarray(a, np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
def save(path, bits):
    head = json.dumps({"t": {"dtype": "BF16", "shape": list(bits.shape), "data_offsets": [0, bits.nbytes]}}).encode()
    head += b" " * (-len(head) % 8)
    open(path, "wb").write(struct.pack("<Q", len(head)) + head + bits.tobytes())
xb = bf16(np.load(d + "/x.npy"))
save(d + "/xb.safetensors", xb)
np.save(d + "/xb32.npy", (xb.astype(np.uint32) << 16).view(np.float32))
PY
rope --config "$LLAMA" --in "$CK/xb32.npy" --out "$CK/yb32.npy" --start 5
"$PY" - "$CK" <<'PY'
import json, struct, numpy as np, sys
d = sys.argv[1]
u = np.load(d + "/yb32.npy").view(np.uint32).astype(np.uint64)
bits = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
head = json.dumps({"t": {"dtype": "BF16", "shape": list(bits.shape), "data_offsets": [0, bits.nbytes]}}).encode()
head += b" " * (-len(head) % 8)
open(d + "/yb.safetensors", "wb").write(struct.pack("<Q", len(head)) + head + bits.tobytes())
PY
expect check_bf16_safetensors_agrees 0 '^verdict: agree' \
    -- check --config "$LLAMA" --in "$CK/xb.safetensors" --out "$CK/yb.safetensors" --start 5
expect check_bf16_safetensors_offset 1 '^ +1\. position_offset .*off by -1' \
    -- check --config "$LLAMA" --in "$CK/xb.safetensors" --out "$CK/yb.safetensors" --start 6

# cos/sin caches [cos..., sin...] from the plan's inv_freq: exact, then float32 angles at p >= 1e5.
"$POSENC" plan --config "$LLAMA" --format json >"$CK/plan.json"
"$PY" - "$CK" <<'PY'
import json, numpy as np, sys
d = sys.argv[1]
w = np.array(json.load(open(d + "/plan.json"))["layers"][0]["inv_freq"])
p = np.arange(100000, 100064)
a = np.outer(p, w)
np.save(d + "/cs.npy", np.concatenate([np.cos(a), np.sin(a)], axis=1).astype(np.float32))
a32 = np.outer(p.astype(np.float32), w.astype(np.float32)).astype(np.float32)
np.save(d + "/cs32.npy", np.concatenate([np.cos(a32), np.sin(a32)], axis=1).astype(np.float32))
PY
expect check_cos_sin_agrees 0 '^verdict: agree' -- check --config "$LLAMA" --cos-sin "$CK/cs.npy" --start 100000
# float32 angles alone are verdict float32: exit 0, or 1 under --strict
expect check_cos_sin_float32 0 '^verdict: float32 .*' -- check --config "$LLAMA" --cos-sin "$CK/cs32.npy" --start 100000
expect check_cos_sin_float32_named 0 '^ +1\. float32_angles .*w rounded to float once' \
    -- check --config "$LLAMA" --cos-sin "$CK/cs32.npy" --start 100000
expect check_cos_sin_float32_strict 1 '^verdict: float32' \
    -- check --config "$LLAMA" --cos-sin "$CK/cs32.npy" --start 100000 --strict
expect check_strict_agree 0 '^verdict: agree' -- check --config "$LLAMA" --cos-sin "$CK/cs.npy" --start 100000 --strict

# --layout: the engine's pairing over the config's convention. llama2.c's loop restated in numpy
# float32 (run.c of karpathy/llama2.c: interleaved pairs, 1/powf(10000, 2j/d), pos * freq, cosf),
# powf taken correctly rounded as glibc's is (numpy's own float32 power is not, on every build).
"$PY" - "$CK" <<'PY'
import numpy as np, sys
d = sys.argv[1]
x = np.load(d + "/x.npy")
e = np.arange(0, 128, 2).astype(np.float32) / np.float32(128)
freq = np.float32(1) / np.power(10000.0, e.astype(np.float64)).astype(np.float32)
def rot(start):
    y = x.copy()
    for t in range(len(x)):
        val = np.float32(start + t) * freq
        c, s = np.cos(val.astype(np.float64)).astype(np.float32), np.sin(val.astype(np.float64)).astype(np.float32)
        v0, v1 = x[t, :, 0::2], x[t, :, 1::2]
        y[t, :, 0::2], y[t, :, 1::2] = v0 * c - v1 * s, v0 * s + v1 * c
    return y
np.save(d + "/l2c.npy", rot(100000))
np.save(d + "/l2c_off.npy", rot(100001))
PY
L2="$FIX/llama-2-7b.json"
expect check_layout_flag_float32 0 '^verdict: float32 .*' \
    -- check --config "$L2" --layout interleaved --in "$CK/x.npy" --out "$CK/l2c.npy" --start 100000
expect check_layout_flag_powf 0 '^float32: .*recipe powf within the bound' \
    -- check --config "$L2" --layout interleaved --in "$CK/x.npy" --out "$CK/l2c.npy" --start 100000
expect check_layout_flag_header 0 'layer 0: default, base 10000, rotary 128 of 128, interleaved' \
    -- check --config "$L2" --layout interleaved --in "$CK/x.npy" --out "$CK/l2c.npy" --start 100000
# without --layout: the config's half-split convention, so the layout and the float32 recipe are named together
expect check_layout_and_float32 1 '^ +1\. layout .*interleaved instead of half-split \+ float32 angles \(powf\) \[explains' \
    -- check --config "$L2" --in "$CK/x.npy" --out "$CK/l2c.npy" --start 100000
# a fault on top of float32 angles: one position late
expect check_offset_on_float32 1 '^ +1\. position_offset .*off by \+1 \+ float32 angles \(powf\) \[explains' \
    -- check --config "$L2" --layout interleaved --in "$CK/x.npy" --out "$CK/l2c_off.npy" --start 100000
expect check_layout_agrees 0 '^verdict: agree' \
    -- check --config "$LLAMA" --layout interleaved --in "$CK/x.npy" --out "$CK/y_layout.npy" --start 0
expect check_layout_bad 2 '--layout' \
    -- check --config "$LLAMA" --layout bogus --in "$CK/x.npy" --out "$CK/y.npy" --start 0
expect check_layout_not_for_cache 2 '--layout does not apply to --cos-sin' \
    -- check --config "$LLAMA" --layout half --cos-sin "$CK/cs.npy" --start 0
# nothing explains noise: said so, exit 1
"$PY" -c 'import numpy as np,sys; np.save(sys.argv[1], np.random.default_rng(5).uniform(-1, 1, (64, 4, 128)).astype(np.float32))' "$CK/noise.npy"
expect check_unexplained 1 '^no hypothesis explains this: the best misses the dump by up to' \
    -- check --config "$LLAMA" --in "$CK/x.npy" --out "$CK/noise.npy" --start 0

# Positions at the ends of int64 (issue #26): exact bins, no overflow (the asan build runs this too).
"$PY" - "$CK" <<'PY'
import numpy as np, sys
d = sys.argv[1]
np.save(d + "/x2.npy", np.load(d + "/x.npy")[:2])
np.save(d + "/pext.npy", np.array([-2**63, 2**63 - 1], np.int64))
np.save(d + "/cs2.npy", np.load(d + "/cs.npy")[:2])
PY
expect check_start_int64_max 1 'positions start=9223372036854775807 \+ count=64 overflow int64' \
    -- check --config "$LLAMA" --in "$CK/x.npy" --out "$CK/y.npy" --start 9223372036854775807
expect check_start_int64_max_bins 1 '^  9223372036854775807-9223372036854775807 ' \
    -- check --config "$LLAMA" --in "$CK/x2.npy" --out "$CK/x2.npy" --start 9223372036854775806
if "$POSENC" check --config "$LLAMA" --in "$CK/x2.npy" --out "$CK/x2.npy" --positions "$CK/pext.npy" --format json \
    --plot "$CK/ext.png" >"$CK/ext.json"; [ $? -eq 1 ] && "$PY" - "$CK/ext.json" <<'PY'
import json, sys
g = json.load(open(sys.argv[1]))["growth"]["positions"]
assert len(g) == 32 and g[0][0] == -2**63 and g[-1][1] == 2**63 - 1, g[:2]
assert all(a[1] + 1 == b[0] for a, b in zip(g, g[1:])) and all(lo <= hi for lo, hi in g)
PY
then ok check_positions_int64_ends; else bad check_positions_int64_ends "$(head -c 300 "$CK/ext.json")"; fi
expect check_cos_sin_int64_ends 1 '^verdict: disagree' \
    -- check --config "$LLAMA" --cos-sin "$CK/cs2.npy" --positions "$CK/pext.npy"

# --plot: a PNG, written whole
if "$POSENC" check --config "$LLAMA" --in "$CK/x.npy" --out "$CK/y_layout.npy" --start 0 --plot "$CK/fig.png" >/dev/null;
    [ $? -eq 1 ] && head -c 8 "$CK/fig.png" | od -An -c | grep -q 'P   N   G'; then ok check_plot; else bad check_plot "no PNG"; fi

# usage and runtime errors, in the flags' words
expect check_needs_one_source 2 'exactly one of --config config.json or --gguf' \
    -- check --in "$CK/x.npy" --out "$CK/y.npy" --start 0
expect check_both_sources 2 'exactly one of --config' \
    -- check --config "$LLAMA" --gguf "$TMP/none.gguf" --in "$CK/x.npy" --out "$CK/y.npy" --start 0
expect check_needs_dump 2 'give --in X.npy and --out Y.npy \(or --cos-sin C.npy\)' -- check --config "$LLAMA" --start 0
expect check_cos_sin_or_in 2 '--cos-sin replaces --in/--out' \
    -- check --config "$LLAMA" --in "$CK/x.npy" --cos-sin "$CK/cs.npy" --start 0
expect check_needs_positions 2 'exactly one of --start P or --positions P.npy' \
    -- check --config "$LLAMA" --in "$CK/x.npy" --out "$CK/y.npy"
expect check_layer_range 2 '--layer 99: .*llama-3.1-8b.json has 32 layers \(0-31\)' \
    -- check --config "$LLAMA" --layer 99 --in "$CK/x.npy" --out "$CK/y.npy" --start 0
expect check_nope_layer 1 '--layer 3 of .* does not rotate \(NoPE\)' \
    -- check --config "$FIX/llama-4-scout-17b-16e.json" --layer 3 --in "$CK/x.npy" --out "$CK/y.npy" --start 0
expect check_missing_dump 1 "--out $CK/none.npy: " \
    -- check --config "$LLAMA" --in "$CK/x.npy" --out "$CK/none.npy" --start 0
expect check_shape_mismatch 1 '--out .* has shape \(48, 2, 256\), --in .* \(64, 4, 128\)' \
    -- check --config "$LLAMA" --in "$CK/x.npy" --out "$CK/g.npy" --start 0
expect check_cache_width 1 'rows of 256; layer 0 of .* rotates 128 elements' \
    -- check --config "$LLAMA" --cos-sin "$CK/wide.npy" --start 0
expect check_plot_name 2 '--plot fig.pdf: the figure.s name must end in .png or .svg' \
    -- check --config "$LLAMA" --in "$CK/x.npy" --out "$CK/y.npy" --start 0 --plot fig.pdf
