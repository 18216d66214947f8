#!/usr/bin/env bash
# setup-deps.sh — installs the Debian packages posenc builds against, if any
# are missing. The Makefile calls it once per build tree; run it by hand to
# see what it would do. Needs root (or sudo) only when something is missing;
# without either it says so first, with the apt-get line to run as root.
set -euo pipefail

# libcjson-dev: the model config.json reader (no hand-written JSON parser).
# libcairo2-dev: the CLI's PNG/SVG figures (cli/plot/ only; never the library).
packages=(libcjson-dev libcairo2-dev)
# Packages a make target asks for on top of the build's own, as arguments
# (make fuzz: clang libclang-rt-14-dev; make valgrind: valgrind). --web: the
# explorer's toolchain (make explorer, make run): emscripten, and nodejs and
# npm unless node and npm are already on PATH (NodeSource's nodejs bundles
# npm; Debian 12's npm is a package of its own). --browser: chromium for
# make test-browser. --arm64: make test-arm64's cross compiler, arm64 C
# library and cJSON (Debian multiarch: adds the arm64 architecture to dpkg),
# the multiarch libc6:arm64 whose loader runs the result (Makefile,
# ARM64_RUN), and qemu to run it.
for a in "$@"; do
    if [ "$a" = --web ]; then
        packages+=(emscripten)
        command -v node >/dev/null 2>&1 || packages+=(nodejs)
        command -v npm >/dev/null 2>&1 || packages+=(npm)
    elif [ "$a" = --browser ]; then
        packages+=(chromium)
    elif [ "$a" = --arm64 ]; then
        packages+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross libcjson-dev:arm64 libc6:arm64
                   qemu-user-static)
    else
        packages+=("$a")
    fi
done

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

# Say first whether this can work at all, then show apt's own account of
# what it installs (the named packages pull in their dependencies: on a
# minimal Debian 12 about a hundred packages, a few hundred MB).
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "posenc: missing Debian packages: ${missing[*]}" >&2
    echo "posenc: installing them needs root, and this is user $(id -un) without sudo; as root run:" >&2
    echo "    apt-get update && apt-get install -y ${missing[*]}" >&2
    echo "posenc: then run make again." >&2
    exit 1
fi
echo "posenc: installing Debian packages (and what they depend on): ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# an :arm64 package needs the architecture known to dpkg before the update
if [[ " ${missing[*]} " == *":arm64 "* ]] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
    $SUDO dpkg --add-architecture arm64
fi
# Wait for another apt/dpkg run to finish (a shared machine, or an unattended
# upgrade on a fresh box) instead of failing on its lock.
LOCK_WAIT=(-o DPkg::Lock::Timeout=900)
$SUDO apt-get "${LOCK_WAIT[@]}" update -q
$SUDO apt-get "${LOCK_WAIT[@]}" install -y "${missing[@]}"
