"""pip install of the pure-Python package (analysis/pyproject.toml) into a venv of Debian's python, offline, as
README.md ("Python") says, and how the installed copy reaches the compiled module that `make` built:
through IWARPSIM_MODULE_DIR, and without it an ImportError that says so.  About 10 s (a venv with pip, one wheel).
"""
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib

import pytest

ANALYSIS = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
ROOT = os.path.dirname(ANALYSIS)


def _pyproject():
    with open(os.path.join(ANALYSIS, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)


def test_version_is_cmakes():
    """The version is project(iwarp-ns3 VERSION ...); pyproject.toml holds a copy, setuptools cannot read CMake."""
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        m = re.search(r"^project\(iwarp-ns3 VERSION (\S+)", f.read(), re.M)
    assert m, "no project(iwarp-ns3 VERSION ...) in CMakeLists.txt"
    assert _pyproject()["project"]["version"] == m.group(1)


def _env(**extra):
    """The environment without the test run's PYTHONPATH (build/python, which would shadow the venv's package)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "IWARPSIM_MODULE_DIR")}
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    """(the venv's python, its iwarpsim folder, a folder to run in) after the documented pip install."""
    for module, package in (("setuptools", "python3-setuptools"), ("wheel", "python3-wheel")):
        if importlib.util.find_spec(module) is None:
            pytest.skip("%s is not installed for %s (Debian: %s): pip cannot build the package offline"
                        % (module, sys.executable, package))
    tmp = tmp_path_factory.mktemp("packaging")
    # pip builds in the folder it installs from, and setuptools leaves build/ and iwarpsim.egg-info/ there:
    # a copy keeps them out of the work tree.
    src = tmp / "analysis"
    shutil.copytree(ANALYSIS, src, ignore=shutil.ignore_patterns("tests", "__pycache__", "build", "*.egg-info"))
    made = subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(tmp / "venv")],
                          capture_output=True, text=True, env=_env(), timeout=300)
    if made.returncode != 0 and "ensurepip" in made.stdout + made.stderr:
        pytest.skip("no venv with pip for %s (Debian: python3-venv): %s" % (sys.executable, made.stdout.strip()))
    assert made.returncode == 0, made.stdout + made.stderr
    python = str(tmp / "venv" / "bin" / "python")
    pip = subprocess.run([python, "-m", "pip", "install", "--no-build-isolation", "--no-index", str(src)],
                         capture_output=True, text=True, env=_env(), cwd=tmp, timeout=300)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    assert "Successfully installed iwarpsim-" in pip.stdout, pip.stdout
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, env=_env(), cwd=tmp, check=True).stdout.strip()
    return python, os.path.join(site, "iwarpsim"), tmp


def test_pip_installs_the_sources_and_no_compiled_module(venv):
    python, installed, _ = venv
    files = {f for f in os.listdir(installed) if f != "__pycache__"}
    sources = {f for f in os.listdir(os.path.join(ANALYSIS, "iwarpsim")) if f.endswith(".py")}
    assert files == sources | {"py.typed"}, files  # PEP 561 marker included, no _iwarpsim*.so ever


def test_import_without_the_module_says_how_to_get_it(venv):
    python, installed, cwd = venv
    r = subprocess.run([python, "-c", "import iwarpsim"], capture_output=True, text=True, env=_env(), cwd=cwd,
                       timeout=120)
    assert r.returncode != 0
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("ModuleNotFoundError: iwarpsim: the compiled module _iwarpsim is in none of"), r.stderr
    assert installed in last and "IWARPSIM_MODULE_DIR=" in last and "make install" in last, last


def test_module_dir_reaches_the_built_module(venv, tiny):
    from iwarpsim import _iwarpsim  # this run's compiled module: the one `make` built (PYTHONPATH=build/python)

    module_dir = os.path.dirname(os.path.realpath(_iwarpsim.__file__))
    python, installed, cwd = venv
    code = """if True:
        import importlib.metadata, json, sys
        import iwarpsim
        r = iwarpsim.run(json.loads(sys.argv[1]))
        print(json.dumps({"package": iwarpsim.__file__, "module": iwarpsim._iwarpsim.__file__,
                          "version": importlib.metadata.version("iwarpsim"),
                          "delivered": r.summary["workloads"][0]["messages"]["delivered"]}))
    """
    r = subprocess.run([python, "-c", code, json.dumps(tiny)], capture_output=True, text=True, cwd=cwd,
                       env=_env(IWARPSIM_MODULE_DIR=module_dir), timeout=120)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got["package"] == os.path.join(installed, "__init__.py")  # the venv's copy, not the source tree's
    assert os.path.dirname(os.path.realpath(got["module"])) == module_dir
    assert got["version"] == _pyproject()["project"]["version"]
    assert got["delivered"] == tiny["workloads"][0]["count"]
