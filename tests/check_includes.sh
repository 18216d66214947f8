#!/usr/bin/env bash
# check_includes.sh — the include rules of docs/ARCHITECTURE.md ("Build"),
# run by `make test` (target test-includes):
#   1. no include cycles between the modules of src/, cli/, bench/,
#      experiment/ and python/ (a module is foo.c with its foo.h and its
#      extended interface foo_internal.h; module A depends on B when a file
#      of A has `#include "…"` naming a file of B);
#   2. experiment/ includes nothing from src/ (the trainer is a client of
#      include/posenc.h only);
#   3. a kernel (src/kernels/*) includes no header outside src/kernels/ but
#      include/posenc.h and the error channel src/errors.h (a leaf that
#      knows no family): the kernels' interface is src/kernels/kernels.h,
#      and the families reach it through src/internal.h, never the reverse.
# Cycles and kernel includes that existed when the rules were written are
# listed, each with its reason, in tests/include_allowlist.txt: they are
# reported as known; anything not listed fails. A listed cycle that no longer
# exists is reported so its line can be deleted.
# Usage: tests/check_includes.sh [-v] [ROOT]   (default: the repository root;
# -v lists the known exceptions it met, otherwise only their count).
set -euo pipefail
VERBOSE=0
if [ "${1:-}" = -v ]; then VERBOSE=1; shift; fi
ROOT=${1:-$(cd "$(dirname "$0")/.." && pwd)}
exec /usr/bin/python3 - "$ROOT" "$VERBOSE" <<'PY'
import os, re, sys

root, verbose = sys.argv[1], sys.argv[2] == "1"
known = 0
def note(msg):
    global known
    known += 1
    if verbose:
        print(msg)
os.chdir(root)
DIRS = ["src", "cli", "bench", "experiment", "python"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)

files = []
for d in DIRS:
    for dp, _, names in os.walk(d):
        files += [os.path.join(dp, n) for n in names if n.endswith((".c", ".h"))]
files.sort()

def resolve(src, name):
    for cand in (os.path.join(os.path.dirname(src), name), os.path.join("include", name)):
        cand = os.path.normpath(cand)
        if os.path.isfile(cand):
            return cand
    return None  # a generated or system header: not part of the graph

includes = {}
for f in files:
    with open(f, encoding="utf-8", errors="replace") as fh:
        text = fh.read()
    includes[f] = [r for r in (resolve(f, n) for n in INCLUDE.findall(text)) if r]

allowed_cycles, allowed_kernel = [], set()
with open("tests/include_allowlist.txt", encoding="utf-8") as fh:
    for lineno, line in enumerate(fh, 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        body, sep, reason = line.partition(" -- ")
        words = body.split()
        if not sep or not reason.strip() or len(words) < 2 or words[0] not in ("cycle", "kernel"):
            sys.exit(f"tests/include_allowlist.txt:{lineno}: want 'cycle A B ... -- reason' "
                     f"or 'kernel FILE HEADER -- reason'")
        if words[0] == "cycle":
            allowed_cycles.append((frozenset(words[1:]), lineno))
        else:
            allowed_kernel.add((words[1], words[2]))

failures = []

# 1. Module graph and its strongly connected components (Tarjan).
def mod(p):
    stem = os.path.splitext(p)[0]
    return stem[: -len("_internal")] if stem.endswith("_internal") else stem
graph = {}
for f, incs in includes.items():
    graph.setdefault(mod(f), set())
    for i in incs:
        if mod(i) != mod(f):
            graph[mod(f)].add(mod(i))
            graph.setdefault(mod(i), set())
index, low, stack, on, sccs = {}, {}, [], set(), []
def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v); on.add(v)
    for w in sorted(graph[v]):
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            sccs.append(frozenset(comp))
sys.setrecursionlimit(10000)
for v in sorted(graph):
    if v not in index:
        visit(v)
used = set()
for c in sorted(sccs, key=sorted):
    hit = [ln for members, ln in allowed_cycles if c <= members]
    if hit:
        used.update(hit)
        note(f"known cycle (allowlist line {hit[0]}): {' <-> '.join(sorted(c))}")
    else:
        failures.append(f"new include cycle: {' <-> '.join(sorted(c))}")
for members, ln in allowed_cycles:
    if ln not in used:
        print(f"allowlist line {ln}: cycle {' '.join(sorted(members))} is gone; delete the line")

# 2. experiment/ sees only the public header.
for f, incs in includes.items():
    if f.startswith("experiment/"):
        for i in incs:
            if i.startswith("src/"):
                failures.append(f"{f} includes {i}: experiment/ may use include/posenc.h only")

# 3. Kernels include no family header.
for f, incs in includes.items():
    if f.startswith("src/kernels/"):
        for i in incs:
            if i.startswith("src/kernels/") or i in ("include/posenc.h", "src/errors.h"):
                continue
            if (f, i) in allowed_kernel:
                note(f"known kernel include: {f} -> {i}")
            else:
                failures.append(f"{f} includes {i}: kernels include only src/kernels/, "
                                f"posenc.h and src/errors.h")

for msg in failures:
    print("FAIL " + msg)
print(f"include rules: {len(files)} files, {len(failures)} violation(s), "
      f"{known} known exception(s) (tests/include_allowlist.txt; -v lists them)")
sys.exit(1 if failures else 0)
PY
