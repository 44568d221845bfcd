"""mypy over analysis/iwarpsim with the settings of analysis/pyproject.toml ([tool.mypy]): every function annotated,
no type error.  A few seconds; skipped where mypy is not installed (Debian: python3-mypy)."""
import importlib.util
import os
import subprocess
import sys
import tomllib

import pytest

ANALYSIS = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
PYPROJECT = os.path.join(ANALYSIS, "pyproject.toml")


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None,
                    reason="mypy is not installed for this python (Debian: apt-get install python3-mypy)")
def test_mypy_passes_on_the_package():
    with open(PYPROJECT, "rb") as f:
        config = tomllib.load(f)["tool"]["mypy"]
    # What makes a pass mean "fully annotated": an unannotated or half-annotated def is an error.
    assert config.get("disallow_untyped_defs") is True and config.get("disallow_incomplete_defs") is True
    # The sources are checked, not build/python's copies that PYTHONPATH points at.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run([sys.executable, "-m", "mypy", "--config-file", PYPROJECT, os.path.join(ANALYSIS, "iwarpsim")],
                       capture_output=True, text=True, env=env, cwd=ANALYSIS, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("Success: no issues found"), r.stdout
