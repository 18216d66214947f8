#!/usr/bin/env bash
# run_parts.sh — `make test`: runs each test part (a make target) in turn,
# every one even after a failure, keeps its output in LOGDIR/PART.log, and
# ends with one line per part (with its time) and one total, so the end of a
# long run says what passed without scrolling back.
#
#   bash tests/run_parts.sh LOGDIR MAKE [MAKEFLAGS...] -- PART...
#
# A part's count is its own closing line: the C harness's and the shell
# suites' "N passed, N failed[, N skipped]" (the last such line the part
# printed: tests/cli/run.sh's total already includes the suites it sources),
# or pytest's "N passed[, N skipped][, N failed] in Ts". A part that prints no
# count (the include check, the install and pip checks, the fuzz replay)
# counts as one check, passed when its make target succeeded. A part whose
# target failed is failed even if its counts say otherwise (a crash after the
# last test). Exit status 1 when any part failed.
set -uo pipefail

logdir=$1
shift
make_cmd=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do make_cmd+=("$1"); shift; done
shift
mkdir -p "$logdir"

total_p=0 total_f=0 total_s=0 any_failed=0
summary=()
for part in "$@"; do
    log="$logdir/$part.log"
    t0=$SECONDS
    echo "=== make $part"
    "${make_cmd[@]}" --no-print-directory "$part" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    # The part's own closing count: the last harness line, else pytest's.
    line=$(grep -E '^([A-Za-z-]+: )?[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$log" | tail -n 1)
    p=0 f=0 s=0
    if [ -n "$line" ]; then
        p=$(sed -E 's/^([A-Za-z-]+: )?([0-9]+) passed.*/\2/' <<<"$line")
        f=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")
        grep -q skipped <<<"$line" && s=$(sed -E 's/.* ([0-9]+) skipped.*/\1/' <<<"$line")
    elif line=$(grep -E '[0-9]+ (passed|failed).* in [0-9.]+s' "$log" | tail -n 1) && [ -n "$line" ]; then
        num() { grep -oE "[0-9]+ $1" <<<"$line" | grep -oE '[0-9]+' || echo 0; }
        p=$(num passed) s=$(num skipped)
        f=$(( $(num failed) + $(num 'errors?') ))
    elif [ "$rc" -eq 0 ]; then
        p=1
    fi
    if [ "$rc" -ne 0 ]; then
        any_failed=1
        [ "$f" -eq 0 ] && f=1
    fi
    total_p=$((total_p + p)) total_f=$((total_f + f)) total_s=$((total_s + s))
    status=ok
    [ "$rc" -ne 0 ] && status=FAILED
    summary+=("$(printf '  %-16s %-6s %5d passed, %d failed, %d skipped  (%d s)' "$part" "$status" "$p" "$f" "$s" \
        $((SECONDS - t0)))")
done

echo
echo "make test: every part (full output in $logdir/PART.log)"
printf '%s\n' "${summary[@]}"
echo "  all parts: $SECONDS s"
echo "total: $total_p passed, $total_f failed, $total_s skipped"
exit "$any_failed"
