#!/usr/bin/env bash
# setup-deps.sh — installs the Debian packages a make target needs, if any are
# missing, in ONE apt-get call for everything asked (so a user with sudo is
# asked once, and a user without it is shown one complete command).
#
#   bash scripts/setup-deps.sh [--stamps DIR] GROUP|PACKAGE...
#
# Each make target names only the groups it uses (README "Requirements" has
# what each costs on a fresh Debian 12):
#   build        the library and the CLI: cJSON (config.json reader), cairo
#                (the CLI's figures only; never the library), pkg-config
#   web          the explorer page (make explorer, make run): emscripten, and
#                nodejs and npm unless node and npm are already on PATH
#   browser      make test-browser: Debian's chromium, and fonts whose glyphs
#                cover the tour's formulas (Greek, math symbols)
#   python       the Python binding (make python): Python.h and numpy for
#                Debian's /usr/bin/python3
#   python-test  make test-python / test-pip: pytest, hypothesis, PyTorch
#                (the torch tests and DLPack), matplotlib (python/examples),
#                venv/pip/setuptools/wheel for the offline `pip install .`
#   arm64        make test-arm64: the cross compiler, arm64 C library and
#                cJSON (Debian multiarch: adds the arm64 architecture to dpkg)
#                and qemu to run the result
# Anything else is taken as a package name (make valgrind: valgrind; make
# fuzz: clang libclang-rt-14-dev).
#
# --stamps DIR: remember a group as done in DIR/.deps-GROUP-ok, so make pays
# for the check once per build tree; a stamp older than this script is redone.
#
# Packages are installed with --no-install-recommends: apt's "recommended"
# extras (Qt, OpenCV, X11 tools under PyTorch and matplotlib) are not used by
# anything here, and were nine tenths of the download.
set -euo pipefail

stamps=""
if [ "${1:-}" = --stamps ]; then
    stamps=$2
    shift 2
fi

packages=()
groups_done=()
for a in "$@"; do
    if [ -n "$stamps" ] && [ "$stamps/.deps-$a-ok" -nt "$0" ]; then
        continue
    fi
    case "$a" in
    build) packages+=(libcjson-dev libcairo2-dev pkg-config) ;;
    web)
        packages+=(emscripten)
        command -v node >/dev/null 2>&1 || packages+=(nodejs)
        command -v npm >/dev/null 2>&1 || packages+=(npm) ;;
    # fonts-dejavu-core: Greek letters and the math symbols of the tour's
    # formulas; without it chromium draws them as empty boxes.
    browser) packages+=(chromium fonts-dejavu-core) ;;
    python) packages+=(python3-dev python3-numpy) ;;
    python-test)
        # python3-wheel-whl puts the wheel package in /usr/share/python-wheels
        # next to pip's and setuptools', so a plain venv can build offline too.
        packages+=(python3-pytest python3-hypothesis python3-torch python3-matplotlib
                   python3-venv python3-pip python3-setuptools python3-wheel python3-wheel-whl) ;;
    arm64) packages+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross libcjson-dev:arm64 libc6:arm64
                      qemu-user-static) ;;
    -*) echo "setup-deps.sh: unknown option $a" >&2; exit 2 ;;
    *) packages+=("$a"); continue ;;
    esac
    groups_done+=("$a")
done

mark_done() {
    [ -n "$stamps" ] || return 0
    mkdir -p "$stamps"
    for g in "${groups_done[@]+"${groups_done[@]}"}"; do touch "$stamps/.deps-$g-ok"; done
}

missing=()
for p in "${packages[@]+"${packages[@]}"}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
if [ ${#missing[@]} -eq 0 ]; then
    mark_done
    exit 0
fi

# Say first whether this can work at all, then show apt's own account of
# what it installs.
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
    echo "posenc: these Debian packages are missing: ${missing[*]}" >&2
    echo "posenc: installing them with sudo (asked once for all of them)" >&2
else
    echo "posenc: missing Debian packages: ${missing[*]}" >&2
    echo "posenc: installing them needs root, and this is user $(id -un) without sudo; as root run:" >&2
    echo "    apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
    echo "posenc: then run make again." >&2
    exit 1
fi
echo "posenc: installing Debian packages (and what they depend on): ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# One shell under sudo, so the password is asked once for all three steps.
$SUDO bash -euc '
    # an :arm64 package needs the architecture known to dpkg before the update
    if [[ " $* " == *":arm64 "* ]] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
        dpkg --add-architecture arm64
    fi
    # Wait for another apt/dpkg run to finish (a shared machine, or an
    # unattended upgrade on a fresh box) instead of failing on its lock.
    apt-get -o DPkg::Lock::Timeout=900 update -q
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y \
        --no-install-recommends "$@"
' setup-deps "${missing[@]}"
mark_done
