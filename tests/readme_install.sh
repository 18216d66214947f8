#!/usr/bin/env bash
# readme_install.sh — the README's C program and its install-and-link block,
# run exactly as printed, and its Python block.
#
#   bash tests/readme_install.sh [PYTHON_EXT_DIR]
#
# The C program (the ```c block of "## A C program") is saved as app.c in a
# scratch directory that stands in for the top of the tree: `make` there is
# forwarded to the real tree (a one-rule Makefile), so `make install
# PREFIX="$HOME/.local"` installs the tree's build. $HOME is a scratch
# directory too, and PATH, PKG_CONFIG_PATH and LD_LIBRARY_PATH start without
# it, as on a new account. Then the ```sh block that follows the program runs
# line by line in one bash, as a user would paste it; `./app` must print its
# line. The export lines the README prints must be the ones `make install`
# printed (the README tells the user they are "the lines below").
# Every further ```c block (the engine example) is built against that
# installed prefix and run from the top of the tree.
# With PYTHON_EXT_DIR (build/python), the ```python blocks run from the top
# of the tree under Debian's /usr/bin/python3 with that directory on
# PYTHONPATH.
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
README=$ROOT/README.md
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1: $2"; }

# block LANG N: the Nth fenced block of LANG in the README (1-based)
block() {
    awk -v lang="$1" -v want="$2" '
        /^```/ { if (inb) { inb = 0; next } if ($0 == "```" lang) { n++; if (n == want) inb = 1 } next }
        inb { print }' "$README"
}
# the ```sh block that comes right after the ```c block
install_block() {
    awk '/^```c$/ { c = 1; next } c == 1 && /^```$/ { c = 2; next }
         c == 2 && /^```sh$/ { inb = 1; next } inb && /^```$/ { exit } inb { print }' "$README"
}

mkdir -p "$TMP/top" "$TMP/home"
block c 1 >"$TMP/top/app.c"
install_block >"$TMP/top/block.sh"
if [ ! -s "$TMP/top/app.c" ] || ! grep -q 'int main' "$TMP/top/app.c"; then
    bad readme_c_program "no complete C program (a \`\`\`c block with main) in README.md"
fi
if ! grep -q '^make install' "$TMP/top/block.sh"; then
    bad readme_install_block "no \`\`\`sh block with 'make install' after the C program"
fi
printf '%%:\n\t@$(MAKE) --no-print-directory -C %s $@\n' "$ROOT" >"$TMP/top/Makefile"

if [ "$failed" -eq 0 ]; then
    # A new account: no ~/.local anywhere on the search paths.
    (cd "$TMP/top" && env -i HOME="$TMP/home" PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 \
        bash -e -x block.sh) >"$TMP/out.txt" 2>&1
    rc=$?
    if [ "$rc" -ne 0 ]; then
        bad readme_install_block "exit $rc; its output:"
        tail -n 20 "$TMP/out.txt"
    elif ! grep -q '^q\[2\]\[1\]' "$TMP/out.txt"; then
        bad readme_install_block "./app ran but did not print its line"
    else
        ok readme_install_block
    fi
    # The exports the README prints are the ones make install told the user.
    missing=""
    while IFS= read -r line; do
        line=${line%%#*}
        line=$(sed -e 's/[[:space:]]*$//' -e "s|\\\$HOME|$TMP/home|g" <<<"$line")
        grep -qF -- "    $line" "$TMP/out.txt" || missing="$missing [$line]"
    done < <(grep '^export ' "$TMP/top/block.sh")
    if [ -n "$missing" ]; then bad readme_install_exports "make install did not print:$missing"
    else ok readme_install_exports; fi
fi

# Every further C program of the README (the engine example), built against
# that installed prefix with warnings as errors and run from the top of the
# tree (it reads the tree's fixtures).
nc=$(grep -c '^```c$' "$README")
for ((i = 2; i <= nc; i++)); do
    block c "$i" >"$TMP/prog$i.c"
    pc="$TMP/home/.local/lib/pkgconfig"
    if ! cc -std=c11 -Wall -Wextra -Werror -o "$TMP/prog$i" "$TMP/prog$i.c" \
        $(PKG_CONFIG_PATH="$pc" pkg-config --cflags --libs posenc) >"$TMP/cc$i.txt" 2>&1; then
        bad "readme_c_program_$i" "does not build: $(head -n 5 "$TMP/cc$i.txt")"
    elif ! (cd "$ROOT" && LD_LIBRARY_PATH="$TMP/home/.local/lib" "$TMP/prog$i") >"$TMP/run$i.txt" 2>&1; then
        bad "readme_c_program_$i" "exit $?: $(tail -n 5 "$TMP/run$i.txt")"
    else
        ok "readme_c_program_$i"
    fi
done

if [ $# -ge 1 ]; then
    n=$(grep -c '^```python$' "$README")
    for ((i = 1; i <= n; i++)); do
        block python "$i" >"$TMP/block$i.py"
        if (cd "$ROOT" && PYTHONPATH="$1" PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -P "$TMP/block$i.py") \
            >"$TMP/py$i.txt" 2>&1; then
            ok "readme_python_block_$i"
        else
            bad "readme_python_block_$i" "$(tail -n 5 "$TMP/py$i.txt")"
        fi
    done
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
