#!/usr/bin/env bash
# readme_examples.sh — every `posenc …` (or `./posenc …`) line in a fenced
# block of README.md, run as written against the built binary; each must exit
# 0. Runs in a temporary directory standing in for the top of the tree (its
# tests/ fixtures linked in), with `posenc` on PATH and ./posenc both the
# built binary. Commands that train for minutes run with tiny
# settings appended (listed below); everything else runs exactly as printed.
# Usage: tests/readme_examples.sh path/to/posenc [README.md]
set -u
POSENC=${1:?usage: readme_examples.sh path/to/posenc [README.md]}
POSENC=$(cd "$(dirname "$POSENC")" && pwd)/$(basename "$POSENC")
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
README=${2:-$ROOT/README.md}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0

mkdir -p "$TMP/bin" "$TMP/work"
ln -s "$POSENC" "$TMP/bin/posenc"
ln -s "$POSENC" "$TMP/work/posenc"
# The examples read the repository's fixtures by their paths from the top of
# the tree and write their outputs next to them: a work directory with the
# tree's tests/ linked in, so nothing is written into the tree.
ln -s "$ROOT/tests" "$TMP/work/tests"
cd "$TMP/work" || exit 1

# Tiny settings for the commands that would train for minutes.
TINY_EXPERIMENT="--schemes none,rope --seeds 1 --steps 3 --train-max 2 --test-lengths 2,3 --examples 4"

# Shell blocks only (```sh or ```bash): a bare ``` block is a listing, not commands.
examples=$(awk '/^```/ { fence = fence ? 0 : ($0 ~ /^```(sh|bash)[[:space:]]*$/ ? 1 : 2); next }
                fence == 1 && /^[[:space:]]*(\.\/)?posenc / { print }' "$README" |
    sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]\{1,\}#.*$//')
[ -n "$examples" ] || { echo "FAIL no posenc examples found in $README"; exit 1; }
while IFS= read -r cmd; do
    run=$cmd
    case $cmd in
    *" experiment"*) run="$cmd $TINY_EXPERIMENT" ;;
    *" tour"*--no-experiment*) ;;
    *" tour"*) run="$cmd --no-experiment" ;;
    esac
    if out=$(PATH="$TMP/bin:$PATH" bash -c "$run" 2>&1 >/dev/null); then
        passed=$((passed + 1))
        echo "ok   $cmd"
    else
        failed=$((failed + 1))
        echo "FAIL $cmd (ran: $run): $(echo "$out" | head -3)"
    fi
done <<<"$examples"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
