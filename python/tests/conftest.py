"""pytest set-up: the built module must import (a missing build is an error, not a
skip), a seeded generator per test, and the path of the posenc CLI."""
import os
import pathlib

import numpy as np
import pytest

try:
    import posenc  # noqa: F401  (built by `make python` into build/python)
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError(
        f"cannot import posenc ({e}); run `make python` and put build/python on "
        "PYTHONPATH, with Debian's /usr/bin/python3 (`make test-python` does both)"
    ) from e

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def rng(request):
    """A generator seeded from the test's name: reproducible, different per test."""
    seed = sum(map(ord, request.node.name)) * 7919 + 12345
    return np.random.default_rng(seed)


@pytest.fixture
def posenc_cli():
    path = pathlib.Path(os.environ.get("POSENC", ROOT / "build" / "posenc"))
    if not path.exists():
        pytest.fail(f"the posenc CLI is not built at {path} (make cli)")
    return str(path)
