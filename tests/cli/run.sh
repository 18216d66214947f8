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
expect version 0 '^posenc [0-9]+\.[0-9]+\.[0-9]+ \(kernels: scalar\)$' -- --version
expect help 0 'Commands:' -- --help
expect help_lists_encode 0 'encode +rows of an additive' -- --help
expect no_args 2 'Usage: posenc COMMAND' --
expect unknown_command 2 "unknown command 'frobnicate'" -- frobnicate
for c in encode freqs rope attention tour; do
    expect "help_$c" 0 "^Usage: posenc $c" -- "$c" --help
done
expect help_via_help 0 '^Usage: posenc rope' -- help rope

# --- encode
expect encode_golden_table 0 '7 +0\.656987 +0\.753902 +0\.069943 +0\.997551' -- encode sinusoidal --dim 4 --positions 7
expect encode_golden_json 0 '^\{"scheme": "sinusoidal", "dim": 4, "positions": \[7\], "values": \[\[0\.6569865987187890[0-9]*, 0\.75390225434330[0-9]*, 0\.0699428473375327[0-9]*, 0\.997551000253279[0-9]*\]\]\}$' \
    -- encode sinusoidal --dim 4 --positions 7 --format json
expect encode_binary_csv 0 '^5,1,0,1$' -- encode binary --range 0:8 --format csv
expect encode_binary_header 0 '^position,c0,c1,c2$' -- encode binary --range 0:8 --format csv
expect encode_normalized 0 '"values": \[\[0\.0\], \[0\.5\], \[1\.0\]\]' -- encode normalized --dim 1 --range 0:3 --format json
expect encode_raw_scale 0 '"values": \[\[-1\.0, -1\.0\], \[-0\.5, -0\.5\]\]' -- encode raw --dim 2 --range -2:0 --scale 0.5 --format json
expect encode_concatenated 0 '"values": \[\[0\.0, 0\.0, 1\.0, 1\.0\]\]' -- encode sinusoidal --dim 4 --positions 0 --layout concatenated --format json
expect encode_odd_dim 1 'dim=5 must be even' -- encode sinusoidal --dim 5 --positions 1
expect encode_bad_base 1 'base=0 must be' -- encode sinusoidal --dim 4 --positions 1 --base 0
expect encode_out_of_range 1 'position 9 .* outside \[0, length=4\)' -- encode normalized --dim 2 --positions 1,9 --length 4
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
expect freqs_json 0 '^\{"rope_type": "default", "head_dim": 8, "rotary_dim": 8, "inv_freq": \[1\.0, 0\.10000000000000001, 0\.01, 0\.001\], "attention_factor": 1\.0\}$' \
    -- freqs --head-dim 8 --format json
expect freqs_partial 0 '"head_dim": 8, "rotary_dim": 4, "inv_freq": \[1\.0, 0\.01\]' -- freqs --head-dim 8 --rotary-dim 4 --format json
expect freqs_table 0 '^ +3 +0\.001 +6283\.18530717958' -- freqs --head-dim 8
expect freqs_odd 1 'rotary_dim=127 must be even' -- freqs --head-dim 127
expect freqs_rotary_too_big 1 'rotary_dim=16 exceeds head_dim=8' -- freqs --head-dim 8 --rotary-dim 16
expect freqs_neg_base 1 'base=-5' -- freqs --head-dim 8 --base -5
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
expect rope_missing_layout 2 '--layout interleaved\|half is required' -- rope --in "$TMP/x.npy" --out "$TMP/y.npy" --start 0
expect rope_missing_positions 2 'exactly one of --start' -- rope --in "$TMP/x.npy" --out "$TMP/y.npy" --layout half
expect rope_missing_in 1 'cannot open' -- rope --in "$TMP/none.npy" --out "$TMP/y.npy" --layout half --start 0
printf 'not an npy file at all' >"$TMP/junk.npy"
expect rope_malformed 1 'junk.npy: not a .npy file' -- rope --in "$TMP/junk.npy" --out "$TMP/y.npy" --layout half --start 0
expect rope_rotary_too_big 1 'rotary_dim=10 exceeds head_dim=8' -- rope --in "$TMP/x.npy" --out "$TMP/y.npy" --layout half --start 0 --rotary-dim 10
"$POSENC" encode sinusoidal --dim 8 --range 0:6 --format npy --dtype f64 -o "$TMP/x64.npy"
expect rope_wrong_dtype 1 'need float32' -- rope --in "$TMP/x64.npy" --out "$TMP/y.npy" --layout half --start 0
expect rope_positions_wrong_dtype 1 'need int64' -- rope --in "$TMP/x.npy" --out "$TMP/y.npy" --layout half --positions "$TMP/x.npy"

# --- attention and tour
expect attention_default 0 'without position: [0-9.e-]+ -> permutation-equivariant' -- attention
expect attention_rope_sees_order 0 'with rope: [0-9.e-]+ -> order changes the output' -- attention
expect attention_sinusoidal 0 'with sinusoidal: [0-9.e-]+ -> order changes' -- attention --scheme sinusoidal --tokens 5 --dim 16
expect attention_json 0 '"equivariant_without_position": true, "equivariant_with_scheme": false' -- attention --format json
expect attention_causal 0 'scheme rope, causal' -- attention --causal
expect attention_bad_dim 2 '--dim in \[2, 4096\]' -- attention --dim 0
expect attention_partial_files 2 'give all of --q, --k and --v' -- attention --q "$TMP/x.npy"
expect attention_files 0 'attention output \(6 tokens x 8' -- attention --q "$TMP/x.npy" --k "$TMP/x.npy" --v "$TMP/x.npy"
expect tour_golden 0 'PE\(7\) = \(0\.65699, 0\.75390, 0\.06994, 0\.99755\)' -- tour
expect tour_remark 0 '0\.0698; sin\(0\.07\) = 0\.069942847 rounds to 0\.0699' -- tour
expect tour_relativity 0 'largest difference [0-9.]+e-0[6-9]' -- tour
expect tour_direction 0 'sinusoidal: PE\(m\)\.PE\(m\+7\) - PE\(m\)\.PE\(m-7\) = -?[0-9.]+e-1[0-9]' -- tour

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
