#!/usr/bin/env bash
# setup-python.sh — installs the Debian packages the Python binding builds
# and tests against, if any are missing: python3-dev (Python.h for Debian's
# /usr/bin/python3), python3-numpy and python3-pytest. `make python` and
# `make test-python` call it once per build tree. Extra packages can be named
# as arguments (e.g. python3-matplotlib for python/examples, python3-torch for
# the PyTorch comparisons; neither is installed by default: torch is large).
# Only Debian's packages: no PyPI, and the pyenv `python3` that may come
# first on PATH is not used. Needs root (or sudo) only when something is
# missing.
set -euo pipefail

packages=(python3-dev python3-numpy python3-pytest "$@")

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "posenc: installing Debian packages for the Python binding: ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "posenc: not root and no sudo; install them yourself: apt-get install -y ${missing[*]}" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
