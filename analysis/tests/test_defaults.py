"""Defaults a user meets without asking (issue "One fact, one place"). Reproduced first on 0de3e0e:
sweep()'s cache went to ./iwarpsim-cache in whatever folder the sweep started from, and importing
iwarpsim.plot switched matplotlib to Agg, so a notebook's inline figures stopped showing."""
import importlib
import os
import subprocess
import sys

sweep_module = importlib.import_module("iwarpsim.sweep")  # the package's name `sweep` is the function


def test_the_cache_defaults_to_the_users_cache_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("IWARPSIM_CACHE", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    assert sweep_module.default_cache_dir() == str(tmp_path / "home" / ".cache" / "iwarpsim")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert sweep_module.default_cache_dir() == str(tmp_path / "xdg" / "iwarpsim")
    monkeypatch.setenv("IWARPSIM_CACHE", str(tmp_path / "mine"))
    assert sweep_module.default_cache_dir() == str(tmp_path / "mine")


def test_importing_plot_leaves_the_backend_alone(tmp_path):
    code = ("import matplotlib; matplotlib.use('svg'); import iwarpsim.plot as p; "
            "print(matplotlib.get_backend()); fig = p._figure(2, 2); fig.subplots().plot([0, 1]); "
            "p._save(fig, %r, 'f')" % str(tmp_path))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.splitlines()[0] == "svg", out.stdout  # the caller's choice stands
    assert (tmp_path / "f.png").stat().st_size > 0 and (tmp_path / "f.pdf").stat().st_size > 0
