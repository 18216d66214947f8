#!/usr/bin/env bash
# run.sh — CLI tests: run the built `posenc` on good and bad input and check
# output and exit status. Usage: tests/cli/run.sh path/to/posenc
# Closes with "N passed, N failed"; exits non-zero on any failure.
set -u
POSENC=${1:?usage: run.sh path/to/posenc}
POSENC=$(cd "$(dirname "$POSENC")" && pwd)/$(basename "$POSENC")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0

ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1: $2"; }

# expect NAME STATUS PATTERN -- ARGS...: exit status equals STATUS and the
# combined output matches the extended regex PATTERN.
expect() {
    local name=$1 want=$2 pattern=$3
    shift 4
    local out rc
    out=$("$POSENC" "$@" 2>&1)
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        bad "$name" "exit $rc, want $want; output: $(echo "$out" | head -3)"
    elif ! grep -Eq -- "$pattern" <<<"$out"; then
        bad "$name" "output lacks /$pattern/: $(echo "$out" | head -3)"
    else
        ok "$name"
    fi
}

# --- top level
expect version 0 '^posenc [0-9]+\.[0-9]+\.[0-9]+ \(kernels: (scalar|avx2|avx512)\)$' -- --version
expect help 0 'Commands:' -- --help
expect help_lists_encode 0 'encode +rows of an additive' -- --help
expect no_args 2 'Usage: posenc COMMAND' --
expect unknown_command 2 "unknown command 'frobnicate'" -- frobnicate
for c in encode freqs rope attention tour; do
    expect "help_$c" 0 "^Usage: posenc $c" -- "$c" --help
done
expect help_via_help 0 '^Usage: posenc rope' -- help rope
expect info 0 '^available: scalar( avx2)?( avx512)?$' -- info
if PE_ISA=scalar "$POSENC" info | grep -q '^kernels: scalar$' &&
   PE_ISA=scalar "$POSENC" --version | grep -q 'kernels: scalar'; then ok info_isa_override; else
    bad info_isa_override "PE_ISA=scalar did not select the scalar set"; fi
expect bench_help 0 'ratio = posenc time / baseline time' -- bench --help
expect bench_bad_option 2 "unknown option '--fast'" -- bench --fast

# --- encode
expect encode_golden_table 0 '7 +0\.656987 +0\.753902 +0\.069943 +0\.997551' -- encode sinusoidal --dim 4 --positions 7
expect encode_golden_json 0 '^\{"scheme": "sinusoidal", "dim": 4, "positions": \[7\], "values": \[\[0\.656986598718789[0-9]*, 0\.7539022543433[0-9]*, 0\.069942847337532[0-9]*, 0\.99755100025327[0-9]*\]\]\}$' \
    -- encode sinusoidal --dim 4 --positions 7 --format json
expect encode_binary_csv 0 '^5,1,0,1$' -- encode binary --range 0:8 --format csv
expect encode_binary_header 0 '^position,c0,c1,c2$' -- encode binary --range 0:8 --format csv
expect encode_normalized 0 '"values": \[\[0\.0\], \[0\.5\], \[1\.0\]\]' -- encode normalized --dim 1 --range 0:3 --format json
expect encode_raw_scale 0 '"values": \[\[-1\.0, -1\.0\], \[-0\.5, -0\.5\]\]' -- encode raw --dim 2 --range -2:0 --scale 0.5 --format json
expect encode_concatenated 0 '"values": \[\[0\.0, 0\.0, 1\.0, 1\.0\]\]' -- encode sinusoidal --dim 4 --positions 0 --layout concatenated --format json
expect encode_odd_dim 2 '--dim 5 must be even' -- encode sinusoidal --dim 5 --positions 1
expect encode_bad_base 2 '--base 0 must be' -- encode sinusoidal --dim 4 --positions 1 --base 0
expect encode_out_of_range 2 'position 9 .* outside \[0, --length 4\)' -- encode normalized --dim 2 --positions 1,9 --length 4
expect encode_no_positions 2 'exactly one of --positions' -- encode sinusoidal --dim 4
expect encode_both_positions 2 'exactly one of --positions' -- encode sinusoidal --dim 4 --positions 1 --range 0:2
expect encode_bad_list 2 "'x' in '1,x' is not an integer" -- encode raw --dim 2 --positions 1,x
expect encode_bad_range 2 "is empty" -- encode raw --dim 2 --range 5:5
expect encode_bad_scheme 2 "unknown scheme 'cosine'" -- encode cosine --dim 2 --positions 1
expect encode_missing_dim 2 '--dim D is required' -- encode sinusoidal --positions 1
expect encode_unknown_option 2 "unknown option '--dims'" -- encode sinusoidal --dims 4 --positions 1
expect encode_bad_format 2 "'xml' is not one of table\|csv\|json\|npy" -- encode raw --dim 1 --positions 1 --format xml
expect encode_npy_needs_file 2 'give -o FILE.npy' -- encode raw --dim 1 --positions 1 --format npy
expect encode_npy 0 '^$' -- encode sinusoidal --dim 6 --range 0:5 --format npy -o "$TMP/pe.npy"
if [ -f "$TMP/pe.npy" ] && head -c 6 "$TMP/pe.npy" | grep -q NUMPY && [ "$(stat -c %s "$TMP/pe.npy")" -eq $((128 + 5 * 6 * 4)) ]; then
    ok encode_npy_file
else
    bad encode_npy_file "missing or wrong size"
fi
expect encode_to_file 0 '^$' -- encode raw --dim 1 --positions 3 --format csv -o "$TMP/raw.csv"
if grep -q '^3,3$' "$TMP/raw.csv" 2>/dev/null; then ok encode_to_file_content; else bad encode_to_file_content "$(cat "$TMP/raw.csv" 2>&1)"; fi
expect encode_unwritable 1 'cannot create' -- encode raw --dim 1 --positions 3 -o /nonexistent/x.csv

# --- freqs
expect freqs_json 0 '^\{"rope_type": "default", "head_dim": 8, "rotary_dim": 8, "inv_freq": \[1\.0, 0\.10000000000000001, 0\.01, 0\.001\], "attention_factor": 1\.0, "softmax_scale_multiplier": 1\.0\}$' \
    -- freqs --head-dim 8 --format json
expect freqs_partial 0 '"head_dim": 8, "rotary_dim": 4, "inv_freq": \[1\.0, 0\.01\]' -- freqs --head-dim 8 --rotary-dim 4 --format json
expect freqs_table 0 '^ +3 +0\.001 +0\.001 +6283\.18530717958[0-9]* +-$' -- freqs --head-dim 8
expect freqs_linear 0 '"inv_freq": \[0\.25, 0\.025000000000000001, 0\.0025000000000000001, 0\.00025000000000000001\]' \
    -- freqs --head-dim 8 --scaling linear --factor 4 --format json
expect freqs_yarn_table 0 '^ +4 +0\.01 +0\.0062500000000000003 .* 0\.5000$' \
    -- freqs --head-dim 16 --scaling yarn --factor 4 --original-max-position 2048
expect freqs_yarn_factor_error 2 'factor' -- freqs --head-dim 16 --scaling yarn --factor -1 --original-max-position 2048
expect freqs_bad_scaling 2 "'cubic' is not one of" -- freqs --head-dim 8 --scaling cubic
expect freqs_partial_factor 0 '"rotary_dim": 32' -- freqs --head-dim 128 --partial-rotary-factor 0.25 --format json
expect freqs_partial_both 2 'not both' -- freqs --head-dim 128 --partial-rotary-factor 0.25 --rotary-dim 32
expect freqs_bad_list 2 "--divisors: '1,x' is not a comma-separated list" -- freqs --head-dim 4 --scaling explicit --divisors 1,x
FIX=$(cd "$(dirname "$0")/../fixtures/configs" && pwd)
expect freqs_config_llama31 0 '"rope_type": "llama3", "head_dim": 128, "rotary_dim": 128, .*"layout": "half"' \
    -- freqs --config "$FIX/llama-3.1-8b.json" --format json
expect freqs_config_deepseek 0 'softmax_scale_multiplier 1\.87385420709' -- freqs --config "$FIX/deepseek-v3.json"
expect freqs_config_gptj 0 '"layout": "interleaved"' -- freqs --config "$FIX/gpt-j-6b.json" --format json
expect freqs_config_conflict 2 '--config gives the frequencies; drop --base' -- freqs --config "$FIX/llama-2-7b.json" --base 5
expect freqs_config_missing 1 'cannot open' -- freqs --config "$TMP/nope.json"
printf '{"model_type": "llama", "rope_theta": "ten"}' >"$TMP/bad.json"
expect freqs_config_bad_type 1 'rope_theta' -- freqs --config "$TMP/bad.json"
expect freqs_odd 2 '--head-dim 127 must be even' -- freqs --head-dim 127
expect freqs_rotary_too_big 2 '--rotary-dim 16 exceeds --head-dim 8' -- freqs --head-dim 8 --rotary-dim 16
expect freqs_neg_base 2 '--base -5 must be' -- freqs --head-dim 8 --base -5
expect freqs_missing 2 '--head-dim D is required' -- freqs
expect freqs_bad_number 2 "--base: 'ten' is not a number" -- freqs --head-dim 8 --base ten

# --- rope: make an input with encode (any float32 (tokens, D) .npy works)
"$POSENC" encode sinusoidal --dim 8 --range 0:6 --format npy -o "$TMP/x.npy"
expect rope_forward 0 '^$' -- rope --in "$TMP/x.npy" --out "$TMP/y.npy" --layout half --start 1000
expect rope_inverse 0 '^$' -- rope --in "$TMP/y.npy" --out "$TMP/z.npy" --layout half --start 1000 --inverse
# Forward then inverse gives the input back: every float within 3e-7 (two
# roundings of values <= 1), while the forward output differs from x.
floats() { od -A n -v -t f4 -j 128 "$1" | tr -s ' ' '\n' | grep -v '^$'; }
maxdiff() { paste <(floats "$1") <(floats "$2") | awk 'BEGIN{m=0} {d=$1-$2; if (d<0) d=-d; if (d>m) m=d} END{printf "%g", m}'; }
if [ "$(stat -c %s "$TMP/z.npy")" -eq "$(stat -c %s "$TMP/x.npy")" ] &&
   awk -v a="$(maxdiff "$TMP/x.npy" "$TMP/z.npy")" -v b="$(maxdiff "$TMP/x.npy" "$TMP/y.npy")" 'BEGIN{exit !(a <= 3e-7 && b > 0.1)}'; then
    ok rope_round_trip
else
    bad rope_round_trip "x vs z: $(maxdiff "$TMP/x.npy" "$TMP/z.npy"), x vs y: $(maxdiff "$TMP/x.npy" "$TMP/y.npy")"
fi
"$POSENC" encode sinusoidal --dim 256 --range 0:3 --format npy -o "$TMP/x256.npy"
expect rope_config_layout 0 '^$' -- rope --in "$TMP/x256.npy" --out "$TMP/yc.npy" --config "$FIX/gpt-j-6b.json" --start 3
expect rope_config_needs_rotary 1 'has head_dim 256, but the last dimension of .*x.npy is 8' -- rope --in "$TMP/x.npy" --out "$TMP/yc.npy" --config "$FIX/gpt-j-6b.json" --start 3
expect rope_missing_layout 2 '--layout interleaved\|half is required' -- rope --in "$TMP/x.npy" --out "$TMP/y.npy" --start 0
expect rope_missing_positions 2 'exactly one of --start' -- rope --in "$TMP/x.npy" --out "$TMP/y.npy" --layout half
expect rope_missing_in 1 'cannot open' -- rope --in "$TMP/none.npy" --out "$TMP/y.npy" --layout half --start 0
printf 'not an npy file at all' >"$TMP/junk.npy"
expect rope_malformed 1 'junk.npy: not a .npy file' -- rope --in "$TMP/junk.npy" --out "$TMP/y.npy" --layout half --start 0
expect rope_rotary_too_big 2 "--rotary-dim 10 exceeds --in .*x.npy's last dimension 8" -- rope --in "$TMP/x.npy" --out "$TMP/y.npy" --layout half --start 0 --rotary-dim 10
"$POSENC" encode sinusoidal --dim 8 --range 0:6 --format npy --dtype f64 -o "$TMP/x64.npy"
expect rope_wrong_dtype 1 'x64.npy: float64; convert with x.astype\(np.float32\)' -- rope --in "$TMP/x64.npy" --out "$TMP/y.npy" --layout half --start 0
expect rope_positions_wrong_dtype 1 'float32; convert with p.astype\(np.int64\)' -- rope --in "$TMP/x.npy" --out "$TMP/y.npy" --layout half --positions "$TMP/x.npy"

# --- bias
expect alibi_12 0 '^  head  11  0\.08838835$' -- bias alibi --heads 12
expect alibi_json 0 '"slopes": \[0\.0625, 0\.00390625\], "queries": 2, "keys": 3, "bias": \[\[\[-0\.0625, 0\.0, null\], \[-0\.125, -0\.0625, 0\.0\]\]' \
    -- bias alibi --heads 2 --queries 2 --keys 3 --causal --format json
expect alibi_zero_heads 2 '--heads 0 must be >= 1' -- bias alibi --heads 0
expect alibi_needs_heads 2 'alibi needs --heads' -- bias alibi
# SPEC facts: r = -8 -> 8, -16 -> 10, -32 -> 12, 1 -> 17, 16 -> 26, 127 -> 31
for fact in -8,8 -16,10 -32,12 1,17 16,26 127,31; do
    expect "t5_fact_${fact}" 0 "^${fact}\$" -- bias t5 --range -40:130 --format csv
done
expect t5_json 0 '"relative_positions": \[-1, 0, 1\], "buckets": \[1, 0, 17\]' -- bias t5 --range -1:2 --format json
expect t5_boundaries 0 '^ +-16 +10$' -- bias t5 --range -20:20
expect t5_causal_csv 0 '^-40,' -- bias t5 --range -40:0 --causal --format csv
expect t5_bad_buckets 2 '--buckets 3 must be even' -- bias t5 --range 0:4 --buckets 3
expect bias_unknown 2 "unknown bias 'rel'" -- bias rel

# --- analyze
expect analyze_help_lists 0 'collisions +offsets up to N' -- analyze --help
expect analyze_unknown 2 "unknown analysis 'nope'" -- analyze nope
expect analyze_logit_sum 0 '"logit": ' -- analyze logit-terms --format json
expect analyze_toy_regime_ii 0 'regime ii: key drift' -- analyze toy --zero-q1
expect analyze_toy_regime_i 0 'regime i: content only' -- analyze toy --zero-q1 --zero-k1
expect analyze_toy_regime_iii 0 'regime iii' -- analyze toy --zero-k1
expect analyze_normalized 0 '"values": \[1\.0, 0\.5, 0\.22222222222222221, 0\.020202020202020204\]' -- analyze normalized --format json
expect analyze_normalized_range 1 'position 5 outside \[0, length=3\)' -- analyze normalized --position 5
expect analyze_binary 0 'min 1, max 7 \(first at 63 -> 64\)' -- analyze binary
expect analyze_binary_csv 0 '^7,8,4$' -- analyze binary --range 0:16 --format csv
expect analyze_wavelengths_bases 0 '^cycles +8 of 8 +5 of 8 +3 of 8' -- analyze wavelengths --head-dim 16 --bases 100,10000,1e8 --length 1000
expect analyze_wavelengths_conflict 2 'drop --base' -- analyze wavelengths --bases 100 --base 5
expect analyze_flip_spec 0 '"phase_rad": \[3\.(19999999999999|20000000000000)[0-9]*\]' -- analyze flip --head-dim 2 --scaling explicit --divisors 10000 --offset 32000 --format json
expect analyze_collisions 0 '^offset,distance,ratio_to_neighbour$' -- analyze collisions --head-dim 16 --max-offset 2000 --format csv
expect analyze_collisions_bad 1 '1 <= min <= max' -- analyze collisions --head-dim 16 --min-offset 10 --max-offset 5
expect analyze_relativity 0 '^ +0 +[-0-9.]+ +[-0-9.]+ +0\.000000 +16\.000000 +0$' -- analyze relativity --head-dim 32 --range 0:1
expect analyze_similarity 0 '"matrix": \[\[8\.0, ' -- analyze similarity --dim 16 --range 0:3 --format json
expect analyze_similarity_rope 0 'RoPE score' -- analyze similarity --scheme rope --head-dim 8 --range 0:4

# --- attention and tour
expect attention_default 0 'without position: [0-9.e-]+ -> permutation-equivariant' -- attention
expect attention_rope_sees_order 0 'with rope: [0-9.e-]+ -> order changes the output' -- attention
expect attention_sinusoidal 0 'with sinusoidal: [0-9.e-]+ -> order changes' -- attention --scheme sinusoidal --tokens 5 --dim 16
expect attention_json 0 '"equivariant_without_position": true, "equivariant_with_scheme": false' -- attention --format json
expect attention_causal 0 'scheme rope, causal' -- attention --causal
expect attention_bad_dim 2 '--dim.* \[2, 4096\]' -- attention --dim 0
expect attention_partial_files 2 'give all of --q, --k and --v' -- attention --q "$TMP/x.npy"
expect attention_files 0 'attention output \(6 tokens x 8' -- attention --q "$TMP/x.npy" --k "$TMP/x.npy" --v "$TMP/x.npy"
# tour: its own file
. "$(dirname "${BASH_SOURCE[0]}")/tour.sh"

# --- plot: every figure writes a PNG of the requested size that is not blank
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{printf "%d %d", ($1*16777216)+($2*65536)+($3*256)+$4, ($5*16777216)+($6*65536)+($7*256)+$8}'; }
figs=$("$POSENC" plot --help | awk '/NAME is:/ {f = 1; next} /^$|^Options/ {f = 0} f {print $1}')
[ "$(echo "$figs" | wc -w)" -ge 11 ] && ok plot_lists_figures || bad plot_lists_figures "$figs"
for fig in $figs; do
    out="$TMP/fig-$fig.png"
    if "$POSENC" plot "$fig" --width 600 --height 400 --scale 2 -o "$out" >/dev/null 2>&1 &&
       [ "$(png_size "$out")" = "1200 800" ] && [ "$(stat -c %s "$out")" -gt 15000 ]; then
        ok "plot_$fig"
    else
        bad "plot_$fig" "size $(png_size "$out" 2>/dev/null), bytes $(stat -c %s "$out" 2>/dev/null)"
    fi
done
expect plot_svg 0 '^$' -- plot scaling -o "$TMP/scaling.svg"
if grep -q '<svg' "$TMP/scaling.svg" && grep -q 'width="1200' "$TMP/scaling.svg"; then ok plot_svg_file; else bad plot_svg_file "no svg root"; fi
expect plot_unknown 2 "unknown figure 'pie'" -- plot pie -o "$TMP/x.png"
expect plot_needs_output 2 '-o FILE.png' -- plot waves
expect plot_bad_ext 1 '\.png|\.svg|extension' -- plot waves -o "$TMP/x.gif"
expect plot_bad_dim 1 'dim=5 must be even' -- plot sinusoidal-heatmap --dim 5 -o "$TMP/x.png"

# --- convert-qk (safetensors files built byte by byte: no Python needed)
# mkst FILE HEADER DATA: 8-byte little-endian header length, header, data
# (DATA in printf escapes).
mkst() {
    local n=${#2}
    printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x\\x00\\x00\\x00\\x00' $((n & 255)) $(((n >> 8) & 255)) \
        $(((n >> 16) & 255)) $(((n >> 24) & 255)))" >"$1"
    printf '%s' "$2" >>"$1"
    printf "$3" >>"$1"
}
# data bytes of FILE (the last N bytes), as decimal numbers
tailbytes() { tail -c "$2" "$1" | od -An -tu1 | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'; }
QK_H='{"__metadata__":{"format":"pt"},"l.q_proj.weight":{"dtype":"U8","shape":[8,1],"data_offsets":[0,8]},"l.k_proj.weight":{"dtype":"U8","shape":[4,1],"data_offsets":[8,12]},"norm.weight":{"dtype":"U8","shape":[2],"data_offsets":[12,14]}}'
QK_DATA='\x00\x01\x02\x03\x04\x05\x06\x07\x0a\x0b\x0c\x0d\x14\x15'
mkst "$TMP/meta.st" "$QK_H" "$QK_DATA"
expect convert_help 0 '^Usage: posenc convert-qk' -- convert-qk --help
expect convert_to_half 0 'converted 2 of 3 tensors to the half layout \(heads 2, kv_heads 1, head_dim 4, rotary_dim 4\)' \
    -- convert-qk --in "$TMP/meta.st" --out "$TMP/hf.st" --to half --heads 2 --kv-heads 1
expect convert_lists_shapes 0 '^  l\.k_proj\.weight  U8 \(4, 1\) 1 heads$' \
    -- convert-qk --in "$TMP/meta.st" --out "$TMP/hf_shapes.st" --to half --heads 2 --kv-heads 1
# per head: half row (c, i) <- interleaved row 2i + c, i.e. rows 0 2 1 3
if [ "$(tailbytes "$TMP/hf.st" 14)" = "0 2 1 3 4 6 5 7 10 12 11 13 20 21" ]; then ok convert_half_rows; else
    bad convert_half_rows "$(tailbytes "$TMP/hf.st" 14 2>&1)"; fi
if grep -q '"posenc.qk_layout":"half"' "$TMP/hf.st" && grep -q '"format":"pt"' "$TMP/hf.st"; then
    ok convert_metadata; else bad convert_metadata "$(head -c 200 "$TMP/hf.st" | tr -d '\0')"; fi
expect convert_back 0 'to the interleaved layout' -- convert-qk --in "$TMP/hf.st" --out "$TMP/back.st" --to interleaved --heads 2 --kv-heads 1 --head-dim 4
if [ "$(tailbytes "$TMP/back.st" 14)" = "$(tailbytes "$TMP/meta.st" 14)" ]; then ok convert_round_trip; else
    bad convert_round_trip "$(tailbytes "$TMP/back.st" 14 2>&1)"; fi
expect convert_twice_refused 1 'already in the half layout' -- convert-qk --in "$TMP/hf.st" --out "$TMP/x.st" --to half --heads 2 --kv-heads 1
expect convert_partial_rotary 0 'rotary_dim 2\)' -- convert-qk --in "$TMP/meta.st" --out "$TMP/p.st" --to half --heads 2 --kv-heads 1 --rotary-dim 2
# issue 13: sizes from absurd arguments are checked, never wrapped (UBSan-clean)
expect convert_huge_head_dim 2 'x --head-dim 4611686018427387904 overflows int64' -- convert-qk --in "$TMP/meta.st" --out "$TMP/h.st" --to half --heads 2 --kv-heads 1 --head-dim 4611686018427387904
expect encode_position_int64_max 2 'position 9223372036854775807 leaves no length' -- encode binary --positions 9223372036854775807
expect relativity_int64_min 2 'range must start above -9223372036854775808' -- analyze relativity --range -9223372036854775808:-9223372036854775800
expect convert_odd_rotary 1 'rotary_dim=3 must be even' -- convert-qk --in "$TMP/meta.st" --out "$TMP/x.st" --to half --heads 2 --kv-heads 1 --rotary-dim 3
expect convert_bad_heads 1 "cannot infer --head-dim: 'l.q_proj.weight' has 8 rows, not a multiple of --heads 3" \
    -- convert-qk --in "$TMP/meta.st" --out "$TMP/x.st" --to half --heads 3 --kv-heads 1
expect convert_bad_head_dim 1 "'l.q_proj.weight' has 8 rows; want heads\*head_dim = 4 or kv_heads\*head_dim = 2" \
    -- convert-qk --in "$TMP/meta.st" --out "$TMP/x.st" --to half --heads 2 --kv-heads 1 --head-dim 2
expect convert_k_alone_needs_head_dim 1 'no matched tensor has kv_heads\*D = 2 rows; give --head-dim' \
    -- convert-qk --in "$TMP/meta.st" --out "$TMP/x.st" --to half --heads 2 --kv-heads 1 --tensors '*k_proj.weight'
expect convert_k_alone 0 'converted 1 of 3' \
    -- convert-qk --in "$TMP/meta.st" --out "$TMP/k.st" --to half --heads 2 --kv-heads 1 --head-dim 4 --tensors '*k_proj.weight'
expect convert_no_match 1 "no tensor matches 'nothing\*'" -- convert-qk --in "$TMP/meta.st" --out "$TMP/x.st" --to half --heads 2 --tensors 'nothing*'
expect convert_kv_divides 2 '--kv-heads 3 must divide --heads 2' -- convert-qk --in "$TMP/meta.st" --out "$TMP/x.st" --to half --heads 2 --kv-heads 3
expect convert_needs_to 2 '--to half\|interleaved is required' -- convert-qk --in "$TMP/meta.st" --out "$TMP/x.st" --heads 2
expect convert_bad_to 2 "'both' is not one of" -- convert-qk --in "$TMP/meta.st" --out "$TMP/x.st" --heads 2 --to both
expect convert_needs_heads 2 '--heads N' -- convert-qk --in "$TMP/meta.st" --out "$TMP/x.st" --to half
# malformed inputs: named errors, and no output file (nor temporary) left behind
head -c 40 "$TMP/meta.st" >"$TMP/trunc.st"
expect convert_truncated 1 'header length [0-9]+ runs past the end' -- convert-qk --in "$TMP/trunc.st" --out "$TMP/x.st" --to half --heads 2
mkst "$TMP/lie.st" '{"q_proj.weight":{"dtype":"F32","shape":[8,4],"data_offsets":[0,8]}}' '\x00\x00\x00\x00\x00\x00\x00\x00'
expect convert_lying_shape 1 "'q_proj.weight' shape needs 128 bytes but data_offsets \[0, 8\] span 8" \
    -- convert-qk --in "$TMP/lie.st" --out "$TMP/x.st" --to half --heads 2
mkst "$TMP/past.st" '{"q_proj.weight":{"dtype":"U8","shape":[8],"data_offsets":[0,8]}}' '\x00\x01'
expect convert_offsets_past_end 1 'run past the 2-byte data section' -- convert-qk --in "$TMP/past.st" --out "$TMP/x.st" --to half --heads 2
mkst "$TMP/big.st" '{"q_proj.weight":{"dtype":"U8","shape":[8],"data_offsets":[0,99999999999999999999]}}' ''
expect convert_offset_overflow 1 'data_offsets is not \[begin, end\] integers' -- convert-qk --in "$TMP/big.st" --out "$TMP/x.st" --to half --heads 2
mkst "$TMP/fused.st" '{"qkv_proj.weight":{"dtype":"U8","shape":[16],"data_offsets":[0,16]}}' '\x00\x01\x02\x03\x04\x05\x06\x07\x00\x01\x02\x03\x04\x05\x06\x07'
expect convert_fused_refused 1 'fused qkv projections are not supported' \
    -- convert-qk --in "$TMP/fused.st" --out "$TMP/x.st" --to half --heads 2 --kv-heads 1 --head-dim 4 --tensors '*qkv_proj.weight'
expect convert_missing_input 1 'cannot open' -- convert-qk --in "$TMP/none.st" --out "$TMP/x.st" --to half --heads 2
if [ ! -e "$TMP/x.st" ] && ! ls "$TMP"/*.tmp-* >/dev/null 2>&1; then ok convert_nothing_left_behind; else
    bad convert_nothing_left_behind "$(ls "$TMP")"; fi
cp "$TMP/hf.st" "$TMP/keep.st"
expect convert_unwritable 1 'cannot create /nonexistent/o.st' \
    -- convert-qk --in "$TMP/meta.st" --out /nonexistent/o.st --to half --heads 2 --kv-heads 1
expect convert_fails_keeps_old 1 'already in' -- convert-qk --in "$TMP/hf.st" --out "$TMP/keep.st" --to half --heads 2 --kv-heads 1
if cmp -s "$TMP/hf.st" "$TMP/keep.st"; then ok convert_old_output_intact; else bad convert_old_output_intact "changed"; fi

# --- experiment: usage errors, and a run small enough to take a second
# (2 symbols, 3 steps, 4 examples: checks the plumbing, not learning).
expect experiment_help 0 '^Usage: posenc experiment' -- experiment --help
expect experiment_bad_scheme 2 "unknown scheme 'rop'" -- experiment --schemes rope,rop
expect experiment_twice 2 "'rope' is listed twice" -- experiment --schemes rope,rope
expect experiment_bad_length 2 'test-lengths: 0 is not in 1..1023' -- experiment --test-lengths 8,0
expect experiment_bad_train_max 2 '--train-max must be in 2..256' -- experiment --train-max 1
expect experiment_bad_plot 2 "--plot: 'em.jpg' must end in .png or .svg" -- experiment --plot em.jpg
expect experiment_bad_format 2 "'xml' is not one of" -- experiment --format xml
# Kazemnejad et al.'s third task: the answer sorted (experiment/data.c; tests/experiment/test_layers.c checks the batches)
expect experiment_sort_task 0 'task sort, trained on n = 1\.\.2 symbols' -- experiment --task sort --schemes rope --seeds 1 --steps 3 --train-max 2 --test-lengths 3 --examples 4
expect experiment_bad_task 2 "'shuffle' is not one of" -- experiment --task shuffle
EXP_TINY=(experiment --schemes none,rope,rope-yarn,alibi --seeds 2 --steps 3 --train-max 2
          --test-lengths 2,5 --examples 4)
expect experiment_table 0 'rope-yarn +0/2' -- "${EXP_TINY[@]}"
expect experiment_csv 0 '^rope-yarn,rope,5,2,0,' -- "${EXP_TINY[@]}" --format csv
if "$POSENC" "${EXP_TINY[@]}" --format json >"$TMP/exp.json" 2>"$TMP/exp.err" &&
    /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [s["scheme"] for s in d["schemes"]]==["none","rope","rope-yarn","alibi"]; assert len(d["schemes"][1]["runs"])==2' "$TMP/exp.json"; then
    ok experiment_json_parses; else bad experiment_json_parses "$(head -c 300 "$TMP/exp.json" "$TMP/exp.err")"; fi
if "$POSENC" "${EXP_TINY[@]}" --out "$TMP/exp" --plot "$TMP/em.svg" >/dev/null 2>&1 &&
    [ -s "$TMP/exp/table.txt" ] && [ -s "$TMP/exp/results.csv" ] && [ -s "$TMP/exp/results.json" ] &&
    [ "$(head -1 "$TMP/exp/curves.csv")" = "step,none/1,none/2,rope/1,rope/2,alibi/1,alibi/2" ] &&
    [ "$(wc -l <"$TMP/exp/curves.csv")" -eq 4 ] &&
    head -c 8 "$TMP/exp/exact_match.png" | od -An -c | grep -q 'P   N   G' && grep -q '<svg' "$TMP/em.svg"; then
    ok experiment_out_dir_and_plot; else bad experiment_out_dir_and_plot "$(ls "$TMP/exp" 2>&1)"; fi
# Same seeds, same numbers (and the thread count does not change them).
if "$POSENC" "${EXP_TINY[@]}" --threads 2 --format csv >"$TMP/e1.csv" 2>/dev/null &&
    "$POSENC" "${EXP_TINY[@]}" --threads 1 --format csv >"$TMP/e2.csv" 2>/dev/null && cmp -s "$TMP/e1.csv" "$TMP/e2.csv"; then
    ok experiment_deterministic; else bad experiment_deterministic "the two runs differ"; fi
# Same numbers whatever BLAS kernel or libposenc kernel set the machine would
# pick (issue 14: OpenBLAS's Haswell and SkylakeX sgemm gave different tables).
# 60 steps: enough for a last-bit difference to show in the CSV's 17 digits.
EXP_SMALL=(experiment --schemes rope,alibi --seeds 1 --steps 60 --train-max 4 --test-lengths 4,8
           --examples 20)
if OPENBLAS_CORETYPE=Haswell PE_ISA=avx2 "$POSENC" "${EXP_SMALL[@]}" --format csv >"$TMP/k1.csv" 2>/dev/null &&
    OPENBLAS_CORETYPE=SkylakeX PE_ISA=scalar "$POSENC" "${EXP_SMALL[@]}" --format csv >"$TMP/k2.csv" 2>/dev/null &&
    cmp -s "$TMP/k1.csv" "$TMP/k2.csv"; then
    ok experiment_machine_independent; else bad experiment_machine_independent "the two runs differ"; fi
expect experiment_header_says_how 0 "^RoPE by libposenc's scalar kernels; matrix products posenc's own, fixed order \\((avx512|avx2|sse2|portable) code\\), no BLAS\\.$" -- "${EXP_TINY[@]}"

# Errors in the flags' words, no-effect options refused: tests/cli/flags.sh.
if bash "$(dirname "${BASH_SOURCE[0]}")/flags.sh" "$POSENC" >"$TMP/flags.log" 2>&1; then
    ok "flags.sh ($(tail -1 "$TMP/flags.log"))"; else bad flags.sh "$(grep -m5 FAIL "$TMP/flags.log")"; fi

# --- files, signals and bounded work (docs/RELIABILITY.md): their own script
if bash "$(dirname "$0")/reliability.sh" "$POSENC"; then ok reliability; else
    bad reliability "tests/cli/reliability.sh failed (its lines are above)"; fi

# --- plan, and --layer in freqs / rope
. "$(dirname "$0")/plan.sh"

# --- check: an engine's dumped RoPE against the plan
. "$(dirname "$0")/check.sh"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
