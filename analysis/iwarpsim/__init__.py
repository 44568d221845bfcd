"""iwarpsim: run iwarp-ns3 scenarios from Python, sweep their parameters, plot the results.

    import iwarpsim
    r = iwarpsim.run({"stop": "2ms", "topology": {"kind": "two-hosts"},
                      "workloads": [{"kind": "ping-pong", "from": "h0", "to": "h1", "size": "4KiB", "count": 10}]})
    r.summary["workloads"][0]["latency_by_size"][0]["p50"]; r.messages; r.host; r.out_dir; r.save("kept")

    df = iwarpsim.sweep(base, grid={"workloads.0.size": ["64", "4KiB"]}, repeats=2, jobs=2)

The compiled part is the module _iwarpsim beside this file (built by CMake into build/python/iwarpsim);
a copy of this package installed by pip has no such module and finds it through IWARPSIM_MODULE_DIR.
ns-3's simulator is a process-wide singleton: one simulation per process at a time (run() holds a lock);
sweep() runs points in separate processes (or Dask workers) to go parallel.
"""
from __future__ import annotations

import importlib.util as _importlib_util
import os as _os
import typing as _typing  # private names, like _os: the package's public names are its API

if _typing.TYPE_CHECKING:  # the compiled module has no stub: to a type checker, `from . import _iwarpsim` is untyped
    _iwarpsim: _typing.Any


def _require_compiled_module() -> None:
    """Let `from . import _iwarpsim` find the compiled module, or raise an ImportError that says how to get one.

    CMake builds it beside these sources (build/python/iwarpsim/; `make install` installs both).  pip cannot
    build it, so `pip install ./analysis` installs the sources alone, and IWARPSIM_MODULE_DIR names the folder
    of one that `make` built (a relative one is taken from the current directory).  That folder is searched
    after the package's own, so a module beside the sources is always the one used.
    """
    extra = _os.environ.get("IWARPSIM_MODULE_DIR")
    if extra and _os.path.abspath(extra) not in __path__:
        __path__.append(_os.path.abspath(extra))
    if _importlib_util.find_spec(__name__ + "._iwarpsim") is None:
        # Without this, the import below fails with "cannot import name '_iwarpsim' ... circular import".
        raise ModuleNotFoundError(
            "iwarpsim: the compiled module _iwarpsim is in none of %s. CMake builds it, pip does not: run `make` "
            "in the iwarp-ns3 tree, then use the package it builds (PYTHONPATH=<tree>/build/python), install "
            "both with `make install` (doc/install.md), or keep this package and set "
            "IWARPSIM_MODULE_DIR=<tree>/build/python/iwarpsim (README.md, \"Python\")." % list(__path__),
            name=__name__ + "._iwarpsim")


_require_compiled_module()

from ._core import (SUMMARY_FORMAT, Result, ResultsError, ScenarioError, run, scenario_schema, to_yaml,  # noqa: E402
                    workload_kinds)
from .sweep import sweep  # noqa: E402

__all__ = ["run", "sweep", "Result", "ScenarioError", "ResultsError", "to_yaml", "workload_kinds", "scenario_schema",
           "SUMMARY_FORMAT"]
