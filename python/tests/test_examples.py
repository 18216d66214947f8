"""python/examples reproduce the derivation notebook's figures through the binding:
each runs headless and writes a non-empty PNG. Needs Debian's python3-matplotlib;
skipped (with the reason) when it is not installed."""
import os
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("matplotlib", reason="python3-matplotlib is not installed (apt-get install python3-matplotlib)")

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"
SCRIPTS = sorted(p.name for p in EXAMPLES.glob("*.py"))


def test_examples_exist():
    assert SCRIPTS == ["comparison_figure.py", "rope_rotation_figure.py", "sinusoidal_figure.py"]


@pytest.mark.parametrize("script", SCRIPTS)
def test_example_writes_its_figure(tmp_path, script):
    out = tmp_path / (script[:-3] + ".png")
    env = dict(os.environ, MPLBACKEND="Agg", MPLCONFIGDIR=str(tmp_path))
    run = subprocess.run([sys.executable, str(EXAMPLES / script), "--out", str(out)], capture_output=True,
                         text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 10000
    if script == "rope_rotation_figure.py":
        assert "All equal: True" in run.stdout
    if script == "sinusoidal_figure.py":
        assert "Max difference: " in run.stdout and "e-1" in run.stdout.split("Max difference: ")[1]
