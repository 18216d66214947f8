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
SCRIPTS = sorted(p.name for p in EXAMPLES.glob("*_figure.py"))


def test_examples_exist():
    assert SCRIPTS == ["comparison_figure.py", "rope_rotation_figure.py", "sinusoidal_figure.py"]
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(SCRIPTS + ["atomic_save.py"])


@pytest.mark.parametrize("script", SCRIPTS)
def test_example_writes_its_figure(tmp_path, script):
    out = tmp_path / (script[:-3] + ".png")
    env = dict(os.environ, MPLBACKEND="Agg", MPLCONFIGDIR=str(tmp_path))
    run = subprocess.run([sys.executable, str(EXAMPLES / script), "--out", str(out)], capture_output=True,
                         text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no temporary left
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 10000
    if script == "rope_rotation_figure.py":
        assert "All equal: True" in run.stdout
    if script == "sinusoidal_figure.py":
        assert "Max difference: " in run.stdout and "e-1" in run.stdout.split("Max difference: ")[1]


def _atomic_save():
    sys.path.insert(0, str(EXAMPLES))
    try:
        import atomic_save
    finally:
        sys.path.pop(0)
    return atomic_save


def test_a_failed_save_keeps_the_old_figure(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    save = _atomic_save().savefig_atomic
    out = tmp_path / "fig.png"
    out.write_bytes(b"old figure")
    os.chmod(out, 0o640)
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    with pytest.raises(ValueError):
        save(fig, out, dpi=100, format="no-such-format")
    assert out.read_bytes() == b"old figure"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fig.png"]
    # interrupted after the whole new figure is on disk, just before the rename
    real_replace = os.replace

    def interrupted(src, dst):
        assert pathlib.Path(src).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        raise KeyboardInterrupt

    os.replace = interrupted
    try:
        with pytest.raises(KeyboardInterrupt):
            save(fig, out, dpi=50)
    finally:
        os.replace = real_replace
    assert out.read_bytes() == b"old figure"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fig.png"]
    save(fig, out, dpi=50)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (out.stat().st_mode & 0o777) == 0o640  # the old mode kept, as pe_output does
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fig.png"]
    plt.close(fig)
