#!/usr/bin/env bash
# setup-python.sh — installs the Debian packages the Python binding builds
# and tests against, if any are missing: python3-dev (Python.h for Debian's
# /usr/bin/python3), python3-numpy, python3-pytest and python3-hypothesis
# (python/tests/test_hypothesis.py). `make python` and
# `make test-python` call it once per build tree. Extra packages can be named
# as arguments (e.g. python3-torch for the PyTorch comparisons).
# Only Debian's packages: no PyPI, and the pyenv `python3` that may come
# first on PATH is not used. Needs root (or sudo) only when something is
# missing.
set -euo pipefail

# The install logic lives in setup-deps.sh, which takes extra packages as
# arguments (it also checks the build's own packages, which costs nothing).
# python3-hypothesis: the binding's property tests (python/tests/test_hypothesis.py).
# python3-matplotlib: python/examples draw the notebook's figures and
# python/tests/test_examples.py runs them (otherwise skipped; ~20 MB).
# python3-venv, -pip, -setuptools, -wheel: `pip install .` of the package into
# a venv, offline (make test-pip; README "Python"); python3-wheel-whl puts
# the wheel package in /usr/share/python-wheels next to pip's and
# setuptools', so a plain venv can build with pip's isolation too.
exec bash "$(dirname "$0")/setup-deps.sh" python3-dev python3-numpy python3-pytest python3-hypothesis python3-matplotlib \
    python3-venv python3-pip python3-setuptools python3-wheel python3-wheel-whl "$@"
