"""Every plot command writes a non-empty PNG and PDF (small sweeps: --quick)."""
import os
import subprocess
import sys

import pytest


@pytest.mark.parametrize("what", ["latency", "savings", "loss", "fct"])
def test_plot_command(what, tmp_path):
    out = tmp_path / "plots"
    subprocess.run([sys.executable, "-m", "iwarpsim.plot", what, "--quick", "--jobs", "2", "--out", str(out),
                    "--cache-dir", str(tmp_path / "cache")], check=True, timeout=300)
    for ext in ("png", "pdf"):
        p = out / ("%s.%s" % (what, ext))
        assert p.exists() and p.stat().st_size > 1000, p
    assert (out / (what + ".csv")).stat().st_size > 0
    with open(out / (what + ".png"), "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    # re-plotting from the CSV runs nothing and writes the figure again
    again = tmp_path / "again"
    subprocess.run([sys.executable, "-m", "iwarpsim.plot", what, "--csv", str(out / (what + ".csv")),
                    "--out", str(again)], check=True, timeout=120)
    assert (again / (what + ".png")).stat().st_size > 1000
