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
#      and the families reach it through src/internal.h, never the reverse;
#   4. no include cycles between single files (a.h -> b.h -> a.h), in one
#      folder or across folders;
#   5. no two .c files use each other in a circle, in one folder or across
#      folders. File A uses file B when A names a function or variable that
#      B defines (not static) and that some header or other file declares,
#      or when A includes a header whose static inline code names one: a
#      shared header that declares both sides (plot_internal.h, posenc_py.h)
#      does not hide a circle. This is the layering rule: each file calls
#      only files below it.
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

allowed_cycles, allowed_calls, allowed_kernel = [], [], set()
with open("tests/include_allowlist.txt", encoding="utf-8") as fh:
    for lineno, line in enumerate(fh, 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        body, sep, reason = line.partition(" -- ")
        words = body.split()
        if not sep or not reason.strip() or len(words) < 2 or words[0] not in ("cycle", "calls", "kernel"):
            sys.exit(f"tests/include_allowlist.txt:{lineno}: want 'cycle A B ... -- reason', "
                     f"'calls A.c B.c ... -- reason' or 'kernel FILE HEADER -- reason'")
        if words[0] == "cycle":
            allowed_cycles.append((frozenset(words[1:]), lineno))
        elif words[0] == "calls":
            allowed_calls.append((frozenset(words[1:]), lineno))
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
def cycles(graph):
    """Strongly connected components of more than one node (Tarjan)."""
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
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sccs
sys.setrecursionlimit(10000)
sccs = cycles(graph)
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

# 4. File-level include cycles (a header guard hides them from the compiler,
# not from the reader).
for c in sorted(cycles({f: set(i for i in incs if i in includes) for f, incs in includes.items()}), key=sorted):
    failures.append(f"include cycle between files: {' -> '.join(sorted(c))}")

# 5. Which .c file uses which: a rough C reader (comments, strings and
# preprocessor lines removed; top-level declarations split at ; and at the
# braces of function bodies). Good enough for this tree's plain C11.
IDENT = re.compile(r"[A-Za-z_]\w*")
QUALIFIERS = set("static extern typedef struct enum union const volatile inline register auto".split())

def strip_c(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"'(\\.|[^'\\\n])*'", "''", text)
    out, cont = [], False
    for line in text.split("\n"):
        if cont or line.lstrip().startswith("#"):
            cont = line.rstrip().endswith("\\")
            out.append("")
        else:
            out.append(line)
    return "\n".join(out)

def paren_free(h):
    while re.search(r"\([^()]*\)", h):
        h = re.sub(r"\([^()]*\)", "", h)
    return h

def top_level(text):
    """(kind, head, body) per top-level item: 'func' definitions, 'decl' otherwise."""
    i, n, start, depth = 0, len(text), 0, 0
    while i < n:
        c = text[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == ";" and depth == 0:
            yield ("decl", text[start:i], "")
            start = i + 1
        elif c == "{" and depth == 0:
            head, d, j = text[start:i], 1, i + 1
            while j < n and d:
                d += {"{": 1, "}": -1}.get(text[j], 0)
                j += 1
            is_type = re.search(r"\b(struct|union|enum)\b", head) and "(" not in head
            if not is_type and "=" not in paren_free(head) and "(" in head:
                yield ("func", head, text[i:j])
                start = i = j
                continue
            k = text.find(";", j)
            k = n if k < 0 else k
            yield ("decl", head + " " + text[j:k], "")  # a type or an initializer
            start = i = k + 1
            continue
        i += 1

def name_before_paren(head):
    ids = IDENT.findall(head[: head.find("(")])
    return ids[-1] if ids else None

def declarator_names(head):
    h = re.sub(r"\[[^\]]*\]", "", head.split("=")[0])
    for part in h.split(","):
        ids = [w for w in IDENT.findall(part) if w not in QUALIFIERS]
        if ids:
            yield ids[-1]

def uses_of(text):
    # identifiers, except members after . or ->
    return set(re.findall(r"(?<![.\w])(?<!->)[A-Za-z_]\w*", text))

texts = {f: strip_c(open(f, encoding="utf-8", errors="replace").read()) for f in includes}
headers = [f for f in includes if f.endswith(".h")] + \
          [os.path.join("include", n) for n in sorted(os.listdir("include")) if n.endswith(".h")]
declared_in = {}   # name -> files with a prototype or extern declaration of it
inline_uses = {}   # header -> identifiers its static inline functions name
for f in headers + [f for f in includes if f.endswith(".c")]:
    text = texts.get(f) or strip_c(open(f, encoding="utf-8", errors="replace").read())
    for kind, head, body in top_level(text):
        words = IDENT.findall(head)
        if kind == "func":
            if f.endswith(".h"):
                inline_uses.setdefault(f, set()).update(uses_of(body))
            continue
        if "typedef" in words or "static" in words:
            continue
        h = head.split("=")[0]
        names = [name_before_paren(h)] if "(" in h and not re.search(r"\(\s*\*", h) else \
                list(declarator_names(h)) if "extern" in words else []
        for nm in names:
            if nm:
                declared_in.setdefault(nm, set()).add(f)

defined, own = {}, {}
for f in (f for f in includes if f.endswith(".c")):
    own[f] = set()
    for kind, head, body in top_level(texts[f]):
        words = IDENT.findall(head)
        if kind == "func":
            names = [name_before_paren(head)]
        elif "typedef" in words or "extern" in words or ("(" in head.split("=")[0] and
                                                          not re.search(r"\(\s*\*", head)):
            continue
        else:
            names = list(declarator_names(head))
        for nm in names:
            if not nm:
                continue
            own[f].add(nm)
            if "static" not in words and declared_in.get(nm, set()) - {f}:
                defined.setdefault(nm, set()).add(f)

def reach(f):
    seen, todo = set(), [f]
    while todo:
        g = todo.pop()
        for i in includes.get(g, ()):
            if i not in seen:
                seen.add(i); todo.append(i)
    return seen

calls, why = {}, {}
for f in own:
    names = uses_of(texts[f])
    for h in reach(f):
        names |= inline_uses.get(h, set())
    calls[f] = set()
    for nm in names - own[f]:
        for g in defined.get(nm, ()):
            if g != f:
                calls[f].add(g)
                why.setdefault((f, g), set()).add(nm)

used_calls = set()
for c in sorted(cycles(calls), key=sorted):
    hit = [ln for members, ln in allowed_calls if c <= members]
    edges = "; ".join(f"{a} uses {b} ({', '.join(sorted(why[(a, b)])[:3])})"
                      for a in sorted(c) for b in sorted(c) if b in calls[a])
    if hit:
        used_calls.update(hit)
        note(f"known circle of calls (allowlist line {hit[0]}): {edges}")
    else:
        failures.append(f"files use each other in a circle: {edges}")
for members, ln in allowed_calls:
    if ln not in used_calls:
        print(f"allowlist line {ln}: calls {' '.join(sorted(members))} is gone; delete the line")

for msg in failures:
    print("FAIL " + msg)
print(f"include rules: {len(files)} files, {len(failures)} violation(s), "
      f"{known} known exception(s) (tests/include_allowlist.txt; -v lists them)")
sys.exit(1 if failures else 0)
PY
