#!/usr/bin/env bash
# check_exports.sh SHARED_LIB — the shared library exports the public API
# and nothing else (src/exports.map): every defined dynamic symbol is a
# pe_ name followed by a letter (no internal pe__*, no helper of any other
# name), and every function include/posenc.h declares is among them (a
# map that hid part of the API would fail here too). Run by `make test`.
set -euo pipefail
lib=${1:?usage: check_exports.sh path/to/libposenc.so}
header=${2:-include/posenc.h}
syms=$(nm -D --defined-only "$lib" | awk '{print $NF}' | sed 's/@.*//' | sort -u)
bad=$(printf '%s\n' "$syms" | grep -v '^pe_[a-z]' || true)
if [ -n "$bad" ]; then
    echo "check_exports: $lib exports symbols outside the public API:" >&2
    printf '  %s\n' $bad >&2
    exit 1
fi
# names declared as functions in the header: "pe_name(" at a declaration
declared=$(grep -oE '\bpe_[a-z][a-z0-9_]*\(' "$header" | tr -d '(' | sort -u)
missing=$(comm -23 <(printf '%s\n' "$declared") <(printf '%s\n' "$syms") || true)
# macros and typedefs that look like calls are not functions: keep only names
# the header declares with a return type before them
real_missing=""
for m in $missing; do
    if grep -qE "^[a-z_][a-z0-9_ ]*[ *]${m}\(" "$header"; then real_missing="$real_missing $m"; fi
done
if [ -n "$real_missing" ]; then
    echo "check_exports: declared in $header but not exported by $lib:$real_missing" >&2
    exit 1
fi
echo "check_exports: $(printf '%s\n' "$syms" | wc -l) symbols, all pe_*, every declared function exported"
