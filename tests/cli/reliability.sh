#!/usr/bin/env bash
# reliability.sh — the Files and Bounded-work promises of docs/RELIABILITY.md,
# checked on the built CLI. Usage: tests/cli/reliability.sh path/to/posenc
#   1. no file is opened for writing outside the one atomic writer (a grep of
#      the sources: the same mistake cannot come back unnoticed);
#   2. a full disk (a 64 KiB tmpfs; needs root, else SKIP): an existing
#      output survives ENOSPC for every kind the project writes (text, CSV,
#      JSON, .npy, safetensors, PNG, SVG, the tour's report and figures, the
#      experiment's results), with no temporary left behind;
#   3. SIGINT/SIGTERM mid-write: the old file intact, no temporary, and the
#      process ends by the signal;
#   4. a crashed writer's temporary is removed by the next write, a live
#      writer's is not;
#   5. bounded work: each hang case of issue 13 ends in time (timeout 10)
#      with a named error, and no figure file is made before its data.
# Closes with "N passed, N failed, N skipped"; exits non-zero on any failure.
# A skipped check is printed as SKIP and never counted as passed.
set -u
POSENC=${1:?usage: reliability.sh path/to/posenc}
POSENC=$(cd "$(dirname "$POSENC")" && pwd)/$(basename "$POSENC")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TMP=$(mktemp -d)
MNT=""
SIGMNT=""
cleanup() {
    local m
    for m in "$TMP/disk" "$TMP/sig" "$TMP/ro"; do mountpoint -q "$m" 2>/dev/null && umount "$m"; done
    chmod -R u+w "$TMP" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT
passed=0
failed=0
skipped=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1: $2"; }
skip() { skipped=$((skipped + 1)); echo "SKIP $1: $2"; }

# temps DIR: the temporaries (ours are hidden: .NAME.posenc-tmp-PID-XXXXXX) in DIR
temps() { find "$1" -name '*posenc-tmp-*' 2>/dev/null; }

# --- 1. one writer: nothing else in the sources opens a file for writing.
# A line that must (a scratch file, /dev/null) says why with "atomic-ok:".
pattern='fopen *\([^;]*, *"[^"]*[wa+]|fdopen *\(|freopen *\(|[^_a-z]open *\([^;]*O_(WRONLY|RDWR|CREAT|TRUNC)|[^_a-z]creat *\(|mkstemp|mkostemp|tmpfile *\(|write_to_png *\(|_surface_create *\(|[^_a-z]rename *\(|[^_a-z]remove *\(|[^_a-z]unlink *\('
hits=$(cd "$ROOT" && grep -nE "$pattern" cli/*.c cli/*/*.c src/*.c src/io/*.c src/kernels/*.c experiment/*.c bench/*.c \
    python/*.c fuzz/*.c examples/*.c 2>/dev/null | grep -v 'atomic-ok:' |
    grep -vE '^(src/io/output_file\.c|cli/atomic_file\.c):' |
    grep -vE '_surface_create *\(.*(image_surface_create|_create_for_stream|cairo_surface_create_similar)' |
    grep -vE 'cairo_image_surface_create *\(')
if [ -z "$hits" ]; then ok one_atomic_writer; else
    bad one_atomic_writer "write-opening call outside cli/atomic_file.c and src/io/output_file.c:
$hits"; fi

# --- 2. full disk
# mkst FILE HEADER DATA: a safetensors file (8-byte length, header, data bytes)
mkst() {
    local n=${#2}
    printf "$(printf '\\x%02x\\x%02x\\x00\\x00\\x00\\x00\\x00\\x00' $((n & 255)) $(((n >> 8) & 255)))" >"$1"
    printf '%s' "$2" >>"$1"
    printf "$3" >>"$1"
}
# A q/k checkpoint big enough (256 KiB) that its conversion cannot fit.
QK_H='{"l.q_proj.weight":{"dtype":"F32","shape":[256,128],"data_offsets":[0,131072]},"l.k_proj.weight":{"dtype":"F32","shape":[256,128],"data_offsets":[131072,262144]}}'
mkst "$TMP/qk.st" "$QK_H" ""
head -c 262144 /dev/zero >>"$TMP/qk.st"

fill_disk() { # leave about $1 bytes free on $MNT
    rm -f "$MNT/filler"
    dd if=/dev/zero of="$MNT/filler" bs=4096 >/dev/null 2>&1
    local size
    size=$(stat -c %s "$MNT/filler")
    truncate -s $((size > $1 ? size - $1 : 0)) "$MNT/filler"
}
# survives NAME FILE... -- ARGS: with FILEs holding "old <name>", a nearly
# full disk makes ARGS fail (exit 1 naming the disk) and leaves every FILE
# as it was, with no temporary anywhere on the disk.
# FREE (default 4096) is the room left: the write starts, then fails.
survives() {
    local name=$1 files=() f
    shift
    while [ "$1" != "--" ]; do files+=("$1"); shift; done
    shift
    for f in "${files[@]}"; do mkdir -p "$(dirname "$f")"; printf 'old %s\n' "$f" >"$f"; done
    fill_disk "${FREE:-4096}"
    local out rc
    out=$(cd "$MNT" && "$POSENC" "$@" 2>&1 >/dev/null)
    rc=$?
    local why=""
    [ "$rc" -eq 1 ] || why="exit $rc, want 1"
    [ -z "$why" ] && ! grep -q 'No space left on device' <<<"$out" && why="error does not name the full disk: $out"
    for f in "${files[@]}"; do
        [ -z "$why" ] && [ "$(cat "$f")" != "old $f" ] && why="$f changed: $(head -c 80 "$f" | tr -d '\0')"
    done
    [ -z "$why" ] && [ -n "$(temps "$MNT")" ] && why="temporaries left: $(temps "$MNT")"
    if [ -z "$why" ]; then ok "enospc_$name"; else bad "enospc_$name" "$why"; fi
    rm -rf "${MNT:?}"/*
}

if [ "$(id -u)" -ne 0 ]; then
    skip enospc "not root: cannot mount a 64 KiB tmpfs"
elif ! { mkdir -p "$TMP/disk" && mount -t tmpfs -o size=64k tmpfs "$TMP/disk" 2>/dev/null; }; then
    skip enospc "mount -t tmpfs failed (no privilege in this container?)"
else
    MNT=$TMP/disk
    survives table "$MNT/pe.txt" -- encode sinusoidal --dim 16 --range 0:2000 -o "$MNT/pe.txt"
    survives csv "$MNT/pe.csv" -- encode sinusoidal --dim 16 --range 0:2000 --format csv -o "$MNT/pe.csv"
    survives json "$MNT/pe.json" -- encode sinusoidal --dim 16 --range 0:2000 --format json -o "$MNT/pe.json"
    survives npy "$MNT/pe.npy" -- encode sinusoidal --dim 16 --range 0:2000 --format npy -o "$MNT/pe.npy"
    survives safetensors "$MNT/hf.st" -- convert-qk --in "$TMP/qk.st" --out "$MNT/hf.st" --to half --heads 2 \
        --kv-heads 2 --head-dim 128
    survives png "$MNT/f.png" -- plot waves -o "$MNT/f.png"
    survives svg "$MNT/f.svg" -- plot sinusoidal-heatmap -o "$MNT/f.svg"
    survives tour_report "$MNT/tour/index.html" "$MNT/tour/waves.png" "$MNT/tour/binary.png" -- \
        tour --no-experiment --out "$MNT/tour"
    # no room at all: each result file would fit in 4 KiB, and those written
    # before the first failure are rightly replaced
    FREE=0 survives experiment_results "$MNT/exp/table.txt" "$MNT/exp/results.csv" -- experiment --schemes none,rope \
        --seeds 1 --steps 3 --train-max 2 --test-lengths 2,5 --examples 4 --out "$MNT/exp"
    # The same outputs fit once the disk has room: the failures above were the disk's.
    rm -rf "${MNT:?}"/*
    if "$POSENC" encode sinusoidal --dim 4 --range 0:8 --format json -o "$MNT/pe.json" &&
        grep -q '"values"' "$MNT/pe.json" && [ -z "$(temps "$MNT")" ]; then ok enospc_control_fits; else
        bad enospc_control_fits "a small write failed on the empty tmpfs"; fi
fi

# --- 3. signals mid-write. Job control on, so that the background job
# does not start with SIGINT ignored (a shell does that to `cmd &`). Once
# its temporary shows up the writer is held with SIGSTOP and the temporary
# looked at again: still there, the rename has not happened, and the signal
# (delivered on SIGCONT) must remove it and leave the old file. A writer
# that finished before it was caught, or was caught inside its commit (the
# few microseconds in which signals are blocked and the rename runs, where
# ending with the new file complete is right), is not a test of the signal
# path: it is run again, up to 5 times; only the outcomes of a caught
# writer count.
# interrupted NAME SIGNAL FILE -- ARGS
interrupted() {
    local name=$1 sig=$2 file=$3
    shift 4
    local dir attempt why=""
    dir=$(dirname "$file")
    for ((attempt = 1; attempt <= 5; attempt++)); do
        printf 'old\n' >"$file"
        set -m
        "$POSENC" "$@" >/dev/null 2>"$TMP/sig.err" &
        local pid=$! i caught=""
        set +m
        for ((i = 0; i < 4000; i++)); do
            if [ -n "$(temps "$dir")" ]; then
                kill -STOP "$pid" 2>/dev/null
                [ -n "$(temps "$dir")" ] && caught=1
                break
            fi
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.002
        done
        kill -"$sig" "$pid" 2>/dev/null
        kill -CONT "$pid" 2>/dev/null
        wait "$pid"
        local rc=$? want=$((128 + $(kill -l "$sig")))
        why=""
        [ -z "$caught" ] && why="the write finished before its temporary was caught (exit $rc)"
        [ -z "$why" ] && [ "$rc" -ne "$want" ] && why="exit $rc, want $want (killed by SIG$sig)"
        [ -z "$why" ] && [ -n "$(temps "$dir")" ] && why="temporaries left: $(temps "$dir")"
        [ -z "$why" ] && [ "$(cat "$file")" != "old" ] && why="$file changed ($(stat -c %s "$file") bytes)"
        rm -f "$file"
        case $why in
        "" | "exit "* | "temporaries left"*) break ;; # a caught writer: its outcome counts
        esac
    done
    if [ -z "$why" ]; then ok "signal_$name"; else bad "signal_$name" "$why (attempt $((attempt > 5 ? 5 : attempt)))"; fi
}
# On a RAM disk when root (no fsync of hundreds of MB on a shared disk).
mkdir -p "$TMP/sig"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=200m tmpfs "$TMP/sig" 2>/dev/null; then SIGMNT=$TMP/sig; else SIGMNT=""; fi
# A shell started with SIGINT ignored (`nohup make test &`, a script's
# background job) passes SIG_IGN on to posenc, and POSIX lets no program of
# it take SIGINT back (posenc rightly leaves an ignored signal ignored): the
# SIGINT cases would test the inherited disposition, not posenc. Bit 1 of
# SigIgn (mask 0x2) is SIGINT.
sigint_ignored() {
    local mask
    mask=$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/$$/status 2>/dev/null)
    [ -n "$mask" ] && (( (16#$mask & 2) != 0 ))
}
interrupted_int() {
    if sigint_ignored; then
        skip "signal_$1" "this shell was started with SIGINT ignored (nohup or a background job), which its children inherit"
    else
        interrupted "$@"
    fi
}
interrupted_int int_csv INT "$TMP/sig/big.csv" -- encode sinusoidal --dim 64 --range 0:32768 --format csv \
    -o "$TMP/sig/big.csv"
interrupted term_table TERM "$TMP/sig/big.txt" -- encode sinusoidal --dim 64 --range 0:32768 -o "$TMP/sig/big.txt"
interrupted term_json TERM "$TMP/sig/big.json" -- encode sinusoidal --dim 64 --range 0:32768 --format json \
    -o "$TMP/sig/big.json"
interrupted_int int_npy INT "$TMP/sig/big.npy" -- encode sinusoidal --dim 128 --range 0:65536 --format npy \
    --dtype f64 -o "$TMP/sig/big.npy"
[ -n "$SIGMNT" ] && umount "$SIGMNT"

# --- 4. a crashed writer's temporary (its process is gone) is swept by the
# next write of the same file; a live writer's stays.
mkdir -p "$TMP/stale"
sleep 30 &
live=$!
(exit 0) &
dead=$!
wait "$dead"
printf x >"$TMP/stale/.pe.csv.posenc-tmp-$dead-AbCdEf"
printf x >"$TMP/stale/.pe.csv.posenc-tmp-$live-AbCdEf"
"$POSENC" encode raw --dim 1 --positions 3 --format csv -o "$TMP/stale/pe.csv"
if [ ! -e "$TMP/stale/.pe.csv.posenc-tmp-$dead-AbCdEf" ] && [ -e "$TMP/stale/.pe.csv.posenc-tmp-$live-AbCdEf" ] &&
    grep -q '^3,3$' "$TMP/stale/pe.csv"; then ok stale_temporary_swept; else
    bad stale_temporary_swept "$(ls -A "$TMP/stale")"; fi
kill "$live" 2>/dev/null
wait "$live" 2>/dev/null
rm -rf "$TMP/stale"

# --- 5. bounded work: the hang cases end, with a named error or a figure.
# bounded NAME STATUS PATTERN -- ARGS: within 10 s, exit STATUS, output ~ PATTERN
bounded() {
    local name=$1 want=$2 pattern=$3
    shift 4
    local out rc
    out=$(cd "$TMP" && timeout 10 "$POSENC" "$@" 2>&1)
    rc=$?
    if [ "$rc" -eq 124 ]; then bad "$name" "still running after 10 s"
    elif [ "$rc" -ne "$want" ]; then bad "$name" "exit $rc, want $want: $(head -c 200 <<<"$out")"
    elif ! grep -Eq -- "$pattern" <<<"$out"; then bad "$name" "output lacks /$pattern/: $(head -c 200 <<<"$out")"
    else ok "$name"; fi
}
bounded collisions_max_int64 2 'cos/sin evaluations a scan is limited to' -- \
    analyze collisions --max-offset 9223372036854775807
bounded collisions_under_cap 0 'offset,distance' -- analyze collisions --max-offset 200000 --format csv
bounded encode_range_int64 2 'more than the 134217728 values encode is limited to' -- \
    encode sinusoidal --dim 4 --range 0:9223372036854775807
bounded encode_range_times_dim 2 'positions x --dim 128 are more than' -- \
    encode sinusoidal --dim 128 --range 0:2000000 --format npy -o "$TMP/never.npy"
bounded encode_binary_default_dim 2 'more than the 134217728 values' -- encode binary --range 0:100000000
bounded bias_alibi_cube 2 'bias values, more than the 16777216' -- bias alibi --heads 4096 --queries 4096 --keys 4096
bounded plot_range_past_2p53 2 'limited to \+-2\^53' -- \
    plot waves --range 9007199254740992:9007199254741000 -o "$TMP/never.png"
bounded plot_offset_int64 0 '^$' -- plot flip --offset 9223372036854775807 -o "$TMP/flip.png"
# Ticks near 2^53 (the largest positions a figure takes): the axis loop counts
# in integers, so the figure is drawn instead of hanging.
bounded plot_axis_near_2p53 0 '^$' -- plot waves --range 9007199254740000:9007199254740992 -o "$TMP/w.png"
bounded plot_heatmap_near_2p53 0 '^$' -- \
    plot sinusoidal-heatmap --range 9007199254740900:9007199254740992 -o "$TMP/h.svg"
if [ ! -e "$TMP/never.png" ] && [ ! -e "$TMP/never.npy" ] && [ -s "$TMP/w.png" ] && [ -s "$TMP/h.svg" ] &&
    [ -z "$(temps "$TMP")" ]; then ok no_file_before_its_data; else
    bad no_file_before_its_data "$(ls -A "$TMP")"; fi
# Every cap is stated in its command's --help.
helps_ok=1
for c in "encode:2^27" "bias:2^24" "analyze:2^31" "analyze:10^7 (binary)" "plot:+-2^53" "plot:20000 positions" \
    "attention:at most 4096"; do
    "$POSENC" "${c%%:*}" --help | grep -qF -- "${c#*:}" || { helps_ok=0; bad "help_states_cap" "${c%%:*} --help lacks '${c#*:}'"; }
done
[ "$helps_ok" -eq 1 ] && ok help_states_caps
# plot never removes an existing figure when it fails: a directory that
# refuses the temporary (read-only tmpfs as root, mode 555 otherwise).
mkdir -p "$TMP/ro"
printf 'old figure\n' >"$TMP/old.png"
ro_ready=0
if [ "$(id -u)" -eq 0 ]; then
    if mount -t tmpfs -o size=64k tmpfs "$TMP/ro" 2>/dev/null; then
        cp "$TMP/old.png" "$TMP/ro/f.png"
        mount -o remount,ro "$TMP/ro" 2>/dev/null && ro_ready=1
    fi
else
    cp "$TMP/old.png" "$TMP/ro/f.png" && chmod 555 "$TMP/ro" && ro_ready=1
fi
if [ "$ro_ready" -eq 1 ]; then
    out=$("$POSENC" plot waves -o "$TMP/ro/f.png" 2>&1)
    rc=$?
    if [ "$rc" -eq 1 ] && grep -q "cannot create $TMP/ro/f.png" <<<"$out" && cmp -s "$TMP/ro/f.png" "$TMP/old.png"; then
        ok plot_failure_keeps_figure; else bad plot_failure_keeps_figure "exit $rc: $out"; fi
else
    skip plot_failure_keeps_figure "no read-only directory to write into"
fi
mountpoint -q "$TMP/ro" && umount "$TMP/ro"
chmod 755 "$TMP/ro"

# --- 6. lost output: every byte a command writes to stdout is checked. With
# stdout on /dev/full every command (its --help, and a real run of each one
# that prints) exits 1 naming the failed write, never 0 with nothing written.
if [ -w /dev/full ]; then
    lost_ok=1
    # lost NAME -- ARGS: ARGS > /dev/full exits 1 and says the write failed
    lost() {
        local name=$1 out rc
        shift 2
        out=$(cd "$TMP" && timeout 60 "$POSENC" "$@" 2>&1 >/dev/full)
        rc=$?
        if [ "$rc" -ne 1 ] || ! grep -Eq 'write to (stdout|standard output) failed' <<<"$out"; then
            lost_ok=0
            bad "lost_output_$name" "exit $rc: $(head -c 200 <<<"$out")"
        fi
    }
    cmds=$("$POSENC" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z-]*\) .*/\1/p')
    [ "$(wc -w <<<"$cmds")" -ge 14 ] || { lost_ok=0; bad lost_output_commands "found only: $cmds"; }
    for c in $cmds; do lost "${c}_help" -- "$c" --help; lost "help_$c" -- help "$c"; done
    lost version -- --version
    lost main_help -- --help
    lost attention -- attention
    lost info -- info
    lost encode -- encode sinusoidal --dim 8 --range 0:4
    lost encode_json -- encode sinusoidal --dim 8 --range 0:4 --format json
    lost freqs -- freqs --head-dim 64
    lost plan -- plan --config "$ROOT/tests/fixtures/configs/gemma-2-9b-it.json"
    lost bias -- bias alibi --heads 4
    lost analyze -- analyze binary --range 0:8
    [ "$lost_ok" -eq 1 ] && ok lost_output_every_command
else
    skip lost_output_every_command "no /dev/full"
fi

# --- 7. no reader blocks: a FIFO with no writer is refused at once, by name,
# by every command that reads a file (it used to hang in open()).
mkfifo "$TMP/fifo"
bounded fifo_plan_gguf 1 'fifo: not a regular file \(a FIFO\)' -- plan --gguf "$TMP/fifo"
bounded fifo_check_gguf 1 'fifo: not a regular file \(a FIFO\)' -- check --gguf "$TMP/fifo" --in "$TMP/fifo" --out "$TMP/o.npy" --start 0
bounded fifo_plan_config 1 "fifo': a pipe with no writer" -- plan --config "$TMP/fifo"
bounded fifo_freqs_config 1 "fifo': a pipe with no writer" -- freqs --config "$TMP/fifo"
bounded fifo_rope_in 1 'fifo: a pipe with no writer' -- rope --in "$TMP/fifo" --out "$TMP/o.npy" --layout half --start 0
bounded fifo_convert_qk 1 'fifo: not a regular file \(a FIFO\)' -- \
    convert-qk --in "$TMP/fifo" --out "$TMP/o.st" --to half --heads 1 --head-dim 8
# a FIFO whose writer is there is still read (a stream, as a pipe is)
"$POSENC" encode sinusoidal --dim 8 --range 0:4 --format npy -o "$TMP/x.npy"
cat "$TMP/x.npy" >"$TMP/fifo" &
writer=$!
sleep 0.2
bounded fifo_with_writer_is_read 0 '^$' -- rope --in "$TMP/fifo" --out "$TMP/o.npy" --layout half --start 0
kill "$writer" 2>/dev/null
wait "$writer" 2>/dev/null
rm -f "$TMP/fifo" "$TMP/o.npy" "$TMP/x.npy"

# --- 8. every option's range is enforced (the interval its --help ends with),
# no figure ignores an option it was given, and the messages say what is wrong.
bounded plot_width_0 2 '--width: 0 is outside its range \[16, 8192\]' -- plot waves --width 0 -o "$TMP/never.png"
bounded plot_height_0 2 '--height: 0 is outside its range \[16, 8192\]' -- plot waves --height 0 -o "$TMP/never.png"
bounded plot_scale_0 2 '--scale: 0 is outside its range \[0.25, 8\]' -- plot waves --scale 0 -o "$TMP/never.png"
bounded plot_dim_0 2 '--dim: 0 is outside its range \[1, 4096\]' -- plot waves --dim 0 -o "$TMP/never.png"
bounded plot_width_big 2 '--width: 8193 is outside' -- plot waves --width 8193 -o "$TMP/never.png"
bounded plot_base_nan 2 "--base: 'nan' is not a number \(NaN\)" -- plot waves --base nan -o "$TMP/never.png"
bounded plot_base_grid_base 2 "--base: figure 'base-grid' does not use it \(it takes --dim\)" -- \
    plot base-grid --base nan -o "$TMP/never.png"
bounded plot_wavelengths_base 2 "--base: figure 'wavelengths' does not use it" -- \
    plot wavelengths --base 1 -o "$TMP/never.png"
bounded plot_flip_dim 2 "--dim: figure 'flip' does not use it \(it takes --offset\)" -- plot flip --dim 8 -o "$TMP/never.png"
bounded plot_in_range 0 '^$' -- plot waves --width 16 --height 2048 --scale 8 --dim 4 -o "$TMP/w1.svg"
bounded plot_side_cap 2 'more than 16384 device pixels' -- plot waves --width 8192 --scale 8 -o "$TMP/never.png"
bounded base_subnormal 2 "--base: '1e-320' is out of range \(below the smallest normal double" -- \
    encode sinusoidal --dim 8 --range 0:2 --base 1e-320
bounded base_overflow 2 "--base: '1e999' is out of range \(overflows a double\)" -- \
    encode sinusoidal --dim 8 --range 0:2 --base 1e999
bounded base_inf 2 "--base: 'inf' is not finite" -- encode sinusoidal --dim 8 --range 0:2 --base inf
bounded beta_fast_nan 2 "--beta-fast: 'nan' is not a number \(NaN\)" -- \
    freqs --head-dim 64 --scaling yarn --factor 4 --beta-fast nan
bounded output_empty 2 "option '-o' needs a value \(FILE\), not an empty string" -- encode raw --dim 2 --range 0:2 -o ''
bounded output_eq_empty 2 "option '--output' needs a value \(FILE\), not an empty string" -- \
    encode raw --dim 2 --range 0:2 --output=
[ ! -e "$TMP/never.png" ] && ok no_figure_for_refused_options || bad no_figure_for_refused_options "$(ls "$TMP")"
# the ranges are in --help, each as the interval that is checked
ranges_ok=1
for r in "width W:[16, 8192]" "height H:[16, 8192]" "scale S:[0.25, 8]" "dim D:[1, 4096]"; do
    "$POSENC" plot --help | grep -E -- "--${r%% *} " | grep -qF -- "${r#*:}" || { ranges_ok=0; bad help_states_range "plot --${r%% *} lacks ${r#*:}"; }
done
"$POSENC" plot --help | grep -qF 'base-grid           bases 100' && "$POSENC" plot --help | grep -q 'base-grid .*\[dim\]$' ||
    { ranges_ok=0; bad help_states_figure_options "plot --help lacks base-grid's [dim]"; }
[ "$ranges_ok" -eq 1 ] && ok help_states_ranges

# --- 9. accepted inputs never write NaN/inf: the CLI narrows f64 to f32
# through pe_narrow_f32, so a value past float32 is an error, not an inf.
bounded encode_f32_overflow 1 'position 35 gives 3.5e\+38, beyond float32 .*use --dtype f64' -- \
    encode raw --scale 1e37 --dim 2 --range 0:40 --format npy -o "$TMP/never.npy"
bounded encode_f32_edge 0 '^$' -- encode raw --scale 1e37 --dim 2 --range 0:35 --format npy -o "$TMP/edge.npy"
bounded encode_f64_keeps 0 '^$' -- encode raw --scale 1e37 --dim 2 --range 0:40 --format npy --dtype f64 -o "$TMP/f64.npy"
[ ! -e "$TMP/never.npy" ] && ok encode_overflow_writes_no_file || bad encode_overflow_writes_no_file "never.npy exists"

# --- 10. parsers as strict as their references, seen from the CLI
printf '{"model_type":"llama","head_dim":64,"num_hidden_layers":2,"rope_theta":10000,"name":"\xe9t\xe9"}' >"$TMP/latin1.json"
bounded config_not_utf8 1 'config is not valid UTF-8 \(byte [0-9]+ is 0xe9\)' -- plan --config "$TMP/latin1.json" --format json

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
