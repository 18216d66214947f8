#!/usr/bin/env bash
# flags.sh — the CLI speaks flags: each library error raised from an option
# is reported with the option and its value as typed (or the file it came
# from), and options that would have no effect are refused. Every message
# here is pinned. Usage: tests/cli/flags.sh path/to/posenc (run.sh calls it).
# Closes with "N passed, N failed"; exits non-zero on any failure.
set -u
POSENC=${1:?usage: flags.sh path/to/posenc}
POSENC=$(cd "$(dirname "$POSENC")" && pwd)/$(basename "$POSENC")
PY=/usr/bin/python3
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1: $2"; }

# expect NAME STATUS TEXT -- ARGS...: exit status STATUS and TEXT, a fixed
# string (not a pattern: the messages are pinned word for word), in the output.
expect() {
    local name=$1 want=$2 text=$3
    shift 4
    local out rc
    out=$("$POSENC" "$@" 2>&1)
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        bad "$name" "exit $rc, want $want; output: $(echo "$out" | head -3)"
    elif ! grep -Fq -- "$text" <<<"$out"; then
        bad "$name" "output lacks '$text': $(echo "$out" | head -3)"
    else
        ok "$name"
    fi
}

# Inputs: float32 tensors of last dimension 16 and 15, a float64 and an
# int32 one, positions of the wrong count, dtype and rank.
"$POSENC" encode sinusoidal --dim 16 --range 0:4 --format npy -o "$TMP/q.npy" || exit 1
$PY - "$TMP" <<'PY' || exit 1
import sys
import numpy as np
d = sys.argv[1]
np.save(d + "/odd.npy", np.zeros((4, 2, 15), np.float32))
np.save(d + "/f64.npy", np.zeros((4, 16)))
np.save(d + "/i32.npy", np.zeros((4, 16), np.int32))
np.save(d + "/pos5.npy", np.arange(5, dtype=np.int64))
np.save(d + "/pos_i32.npy", np.arange(4, dtype=np.int32))
np.save(d + "/pos_2d.npy", np.zeros((2, 2), np.int64))
PY
ROPE=(rope --out "$TMP/out.npy" --layout half)

# --- library errors in the flags' words: a value the user typed is a usage error (exit 2)
expect yarn_needs_l0 2 'error: --scaling yarn needs --original-max-position N (L0, the original training context)' \
    -- freqs --head-dim 128 --scaling yarn --factor 4
expect dynamic_needs_l 2 'error: --scaling dynamic needs --max-position N' -- freqs --head-dim 16 --scaling dynamic --factor 2
expect head_dim_odd 2 'error: invalid dimension: --head-dim 127 must be even' -- freqs --head-dim 127
expect rotary_exceeds 2 'error: invalid dimension: --rotary-dim 16 exceeds --head-dim 8' -- freqs --head-dim 8 --rotary-dim 16
expect base_typed 2 'error: invalid parameter value: --base -5 must be finite, positive and not 1' -- freqs --head-dim 8 --base -5
expect base_as_typed 2 '--base 1e0 must be' -- freqs --head-dim 8 --base 1e0
expect factor_typed 2 '--factor -2 must be finite and > 0' -- freqs --head-dim 8 --scaling linear --factor -2
expect betas_typed 2 '--beta-fast 1 must be >= --beta-slow 2' \
    -- freqs --head-dim 16 --scaling yarn --factor 4 --original-max-position 64 --beta-fast 1 --beta-slow 2
expect divisors_count 2 '--divisors 1,2 has 2 entries; it needs one per rotated pair: 8' -- freqs --head-dim 16 --scaling explicit --divisors 1,2
expect ntk_tiny 2 "--head-dim 2: NTK's exponent d/(d-2) needs d > 2" -- freqs --head-dim 2 --scaling ntk --factor 2
expect partial_factor_odd 2 '--partial-rotary-factor 0.5 (rotary dim 5) must be even' \
    -- freqs --head-dim 10 --partial-rotary-factor 0.5
expect analyze_head_dim 2 '--head-dim 7 must be even' -- analyze flip --head-dim 7 --offset 10
# An option the analysis does not read is refused by name, not silently ignored.
expect analyze_unread_own 2 '--lengths has no effect on analyze toy (it is read by normalized)' \
    -- analyze toy --lengths 3,4
expect analyze_unread_freq 2 '--head-dim has no effect on analyze logit-terms (it is read by wavelengths,' \
    -- analyze logit-terms --head-dim 8
expect analyze_unread_scheme 2 '--dim has no effect on analyze similarity with --scheme rope' \
    -- analyze similarity --scheme rope --dim 8
expect analyze_read_by_scheme 0 'RoPE score' -- analyze similarity --scheme rope --seed 2 --layout interleaved --range 0:2
expect config_file_named 1 "nope.json" -- freqs --config "$TMP/nope.json"

# --- the other commands' options, through cli_opts_error
expect encode_dim 2 'error: invalid dimension: --dim 5 must be even for sinusoidal' -- encode sinusoidal --dim 5 --positions 1
expect encode_length 2 'position 9 (token 1) outside [0, --length 4)' -- encode normalized --dim 2 --positions 1,9 --length 4
expect alibi_heads 2 'error: invalid parameter value: --heads 0 must be >= 1' -- bias alibi --heads 0
expect t5_buckets 2 '--buckets 3 must be even and >= 4' -- bias t5 --range 0:4 --buckets 3
expect attention_dim 2 '--dim 5 must be even' -- attention --scheme rope --dim 5
expect similarity_dim 2 '--dim 5 must be even for sinusoidal' -- analyze similarity --scheme sinusoidal --dim 5 --range 0:4

# --- errors that come from a file name the file
expect npy_odd_last_dim 1 "--in $TMP/odd.npy's last dimension 15 must be even" -- "${ROPE[@]}" --in "$TMP/odd.npy" --start 0
expect npy_rotary_exceeds 2 "--rotary-dim 18 exceeds --in $TMP/q.npy's last dimension 16" \
    -- "${ROPE[@]}" --in "$TMP/q.npy" --start 0 --rotary-dim 18
expect npy_float64 1 "--in $TMP/f64.npy: float64; convert with x.astype(np.float32) (rope reads float32)" \
    -- "${ROPE[@]}" --in "$TMP/f64.npy" --start 0
expect npy_int32 1 "--in $TMP/i32.npy: dtype '<i4'; convert with x.astype(np.float32) (rope reads float32)" \
    -- "${ROPE[@]}" --in "$TMP/i32.npy" --start 0
expect positions_count 1 "--positions $TMP/pos5.npy: 5 positions given, 4 needed (one per token of --in $TMP/q.npy)" \
    -- "${ROPE[@]}" --in "$TMP/q.npy" --positions "$TMP/pos5.npy"
expect positions_int32 1 "--positions $TMP/pos_i32.npy: dtype '<i4'; convert with p.astype(np.int64)" \
    -- "${ROPE[@]}" --in "$TMP/q.npy" --positions "$TMP/pos_i32.npy"
expect positions_float 1 "--positions $TMP/q.npy: float32; convert with p.astype(np.int64)" \
    -- "${ROPE[@]}" --in "$TMP/q.npy" --positions "$TMP/q.npy"
expect positions_rank 1 "--positions $TMP/pos_2d.npy: 2 dimensions; need a flat (4,) array" \
    -- "${ROPE[@]}" --in "$TMP/q.npy" --positions "$TMP/pos_2d.npy"
expect config_other_model 1 "has head_dim 256, but the last dimension of $TMP/q.npy is 16: not this model's tensor" \
    -- rope --out "$TMP/out.npy" --in "$TMP/q.npy" --start 0 --config "$(dirname "$0")/../fixtures/configs/gpt-j-6b.json"

# --- options that would have no effect are refused (usage errors)
# expect_read_by NAME 'MESSAGE' 'READERS' -- ARGS: a usage error (2) saying
# MESSAGE "(it is read by LIST)", LIST generated from the scheme table: it
# names at least READERS (the schemes known here to read the option) and
# only rows of PE_SCALING_MAP, in the map's order, so a scheme added to the
# table that reads the option changes no line here.
MAP_NAMES=$(sed -n '/^#define PE_SCALING_MAP/,/[^\\]$/p' "$(dirname "$0")/../../include/posenc.h" |
            sed -n 's/^ *X([A-Z0-9_]*, [0-9]*, "\([a-z0-9_]*\)").*/\1/p' | tr '\n' ' ')
expect_read_by() {
    local name=$1 msg=$2 readers=$3
    shift 4
    local out rc list
    out=$("$POSENC" "$@" 2>&1)
    rc=$?
    list=$(grep -F -- "$msg (it is read by " <<<"$out" | sed -n 's/.*(it is read by \([a-z0-9_, ]*\)).*/\1/p' | tr -d ',')
    if [ "$rc" -ne 2 ] || [ -z "$list" ]; then
        bad "$name" "exit $rc, want 2 and '$msg (it is read by ...)': $(echo "$out" | head -3)"
        return
    fi
    local r missing="" order=""
    for r in $readers; do grep -qw -- "$r" <<<"$list" || missing="$missing $r"; done
    for r in $MAP_NAMES; do grep -qw -- "$r" <<<"$list" && order="$order $r"; done
    if [ -n "$missing" ]; then bad "$name" "'$list' lacks$missing"
    elif [ "$(echo $order)" != "$(echo $list)" ]; then bad "$name" "'$list' is not rows of PE_SCALING_MAP in order"
    else ok "$name"; fi
}
expect_read_by factor_without_scaling '--factor 4 has no effect without --scaling' \
    'linear ntk dynamic yarn llama3 longrope proportional' -- freqs --head-dim 128 --factor 4
expect factor_with_default 2 '--factor 4 has no effect with --scaling default' -- freqs --head-dim 128 --scaling default --factor 4
expect_read_by beta_with_llama3 '--beta-fast 3 has no effect with --scaling llama3' 'yarn' \
    -- freqs --head-dim 16 --scaling llama3 --beta-fast 3
expect_read_by no_truncate_with_linear '--no-truncate has no effect with --scaling linear' 'yarn' \
    -- freqs --head-dim 16 --scaling linear --factor 2 --no-truncate
expect divisors_without_explicit 2 '--divisors 1,2 has no effect with --scaling yarn' \
    -- freqs --head-dim 4 --scaling yarn --original-max-position 64 --factor 2 --divisors 1,2
expect_read_by seq_len_with_linear '--seq-len 9 has no effect with --scaling linear' 'dynamic longrope' \
    -- freqs --head-dim 16 --scaling linear --factor 2 --seq-len 9
expect max_position_with_factor 2 '--max-position 400 has no effect with --factor 4 (--scaling yarn derives f = L / L0 only when --factor is absent)' \
    -- freqs --head-dim 16 --scaling yarn --factor 4 --original-max-position 100 --max-position 400
expect rope_head_dim_mismatch 2 "--head-dim 8 does not match the last dimension 16 of $TMP/q.npy; drop it (it defaults to the tensor's), and give --rotary-dim 8 to rotate only the first 8" \
    -- "${ROPE[@]}" --in "$TMP/q.npy" --start 0 --head-dim 8
# ... and what they would have done still works when said explicitly.
expect rope_head_dim_equal 0 '' -- "${ROPE[@]}" --in "$TMP/q.npy" --start 0 --head-dim 16
expect rope_partial 0 '' -- "${ROPE[@]}" --in "$TMP/q.npy" --start 0 --rotary-dim 8
expect yarn_derived_factor 0 'rope_type yarn' -- freqs --head-dim 16 --scaling yarn --original-max-position 100 --max-position 400
expect dynamic_seq_len 0 'rope_type dynamic' -- freqs --head-dim 16 --scaling dynamic --factor 2 --max-position 64 --seq-len 128

# --- the scheme choices, options and help come from the library's scheme
# table: every row of PE_SCALING_MAP (read from the header here, not from the
# CLI) is a --scaling choice listed in freqs --help with what it does, and
# every option a scheme's help line says it reads is an option of freqs,
# rope and analyze.
HEADER="$(dirname "$0")/../../include/posenc.h"
schemes=$(sed -n '/^#define PE_SCALING_MAP/,/[^\\]$/p' "$HEADER" |
          sed -n 's/^ *X([A-Z0-9_]*, [0-9]*, "\([a-z0-9_]*\)").*/\1/p')
help=$("$POSENC" freqs --help)
[ "$(wc -w <<<"$schemes")" -ge 9 ] && ok scheme_map_read || bad scheme_map_read "found: $schemes"
for s in $schemes; do
    if ! grep -Eq "^  $s +[^ ]" <<<"$help"; then bad "help_lists_$s" "freqs --help has no line for $s"
    elif ! grep -Fq -- "--scaling TYPE" <<<"$help" || ! grep -E -- "--scaling TYPE" <<<"$help" | grep -Eq "(^|[ |])$s(\||$)"; then
        bad "choice_$s" "--scaling's help does not offer $s"
    else
        out=$("$POSENC" freqs --head-dim 16 --scaling "$s" 2>&1)
        if grep -Fq "is not one of" <<<"$out"; then bad "choice_$s" "$out"; else ok "scheme_$s"; fi
    fi
done
# the options the scheme lines name ("reads --a, --b"), each an option of the three commands
reads=$(sed -n '/^Schemes/,/^Options/p' <<<"$help" | grep -o -- '--[a-z][a-z-]*' | sort -u)
[ -n "$reads" ] && ok scheme_reads_listed || bad scheme_reads_listed "no 'reads --x' in freqs --help"
for cmd in freqs rope analyze; do
    opts=$("$POSENC" "$cmd" --help | sed -n '/^Options/,$p')
    missing=""
    for f in $reads; do grep -Eq -- "^  $f( |$)" <<<"$opts" || missing="$missing $f"; done
    [ -z "$missing" ] && ok "options_of_$cmd" || bad "options_of_$cmd" "missing:$missing"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
