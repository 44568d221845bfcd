"""run(): one simulation in this process through the compiled _iwarpsim module; Result: its results folder."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
import warnings
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

# Beside this file after `make` or `make install`; a pip-installed package finds it through IWARPSIM_MODULE_DIR
# (__init__.py, which has already said what to do when it is nowhere).
from . import _iwarpsim

if TYPE_CHECKING:  # pandas is imported when a CSV is first read, not with the package
    import pandas as pd

# What the compiled runner takes (bindings/iwarpsim-module.cc), for the signatures here and in sweep.py.
StrPath: TypeAlias = str | os.PathLike[str]
# A scenario: the YAML file's structure as a dict, YAML text, or a scenario file's path.
Scenario: TypeAlias = dict[str, Any] | StrPath
# iwarp-sim's --set: {"dot.path": value} or ["dot.path=value", ...].
Overrides: TypeAlias = dict[str, Any] | Sequence[str]

ScenarioError = _iwarpsim.ScenarioError
ResultsError = _iwarpsim.ResultsError
SUMMARY_FORMAT: int = _iwarpsim.SUMMARY_FORMAT  # summary.json's "format" this build writes and reads


def workload_kinds() -> list[dict[str, Any]]:
    """The workload kinds a scenario may use, from the runner's registry (iwarp-sim workloads --json):
    a list of dicts with name, family ("rdma", "sockets", "inject"), rdma, summary, ping_pong,
    many_senders, host_group, ops, min_size, metrics and keys (each with name, shape, type, default, doc)."""
    return json.loads(_iwarpsim.workload_kinds_json())


def scenario_schema() -> dict[str, Any]:
    """The JSON Schema (draft-07) of a scenario, from the loader's key declarations (iwarp-sim keys
    --json-schema; doc/scenario.schema.json is the same text): names, shapes, value kinds and ranges. The
    loader checks more (what spans keys: a link's two ends, a stop after every start)."""
    return json.loads(_iwarpsim.scenario_json_schema())


def to_yaml(scenario: dict[str, Any]) -> str:
    """The YAML text the runner loads for a scenario dict."""
    return _iwarpsim.to_yaml(scenario)


class Result:
    """A results folder (doc/scenario-format.md): summary.json as a dict, the CSVs as pandas DataFrames.

    A Result of run() without out_dir owns its temporary folder: the folder is removed when the
    Result is garbage-collected or the interpreter exits.  save(path) copies it to keep it.
    """

    def __init__(self, out_dir: StrPath) -> None:
        self.out_dir: str = os.fspath(out_dir)
        with open(os.path.join(self.out_dir, "summary.json")) as f:
            self.summary: dict[str, Any] = json.load(f)
        self._messages: pd.DataFrame | None = None
        self._host: pd.DataFrame | None = None
        self._queues: pd.DataFrame | None = None
        self._cleanup: weakref.finalize | None = None

    def _own(self, folder: str) -> None:
        """Remove `folder` (the temporary folder holding out_dir) with this Result, or at exit."""
        self._cleanup = weakref.finalize(self, shutil.rmtree, folder, ignore_errors=True)

    @property
    def temporary(self) -> bool:
        """True when out_dir goes away with this Result (run() without out_dir)."""
        return self._cleanup is not None and self._cleanup.alive

    def save(self, path: StrPath) -> Result:
        """Copy the results folder to `path` (which must not exist) and return a Result of the copy,
        which nothing removes."""
        path = os.fspath(path)
        if os.path.exists(path):
            raise FileExistsError("%s already exists" % path)
        shutil.copytree(self.out_dir, path)
        return Result(path)

    @property
    def messages(self) -> pd.DataFrame:
        """messages.csv: one row per message; times in integer ns (nullable Int64: empty = not seen)."""
        if self._messages is None:
            import pandas as pd

            df = pd.read_csv(os.path.join(self.out_dir, "messages.csv"))
            for c in df.columns:
                if c.endswith("_ns"):
                    df[c] = df[c].astype("Int64")
            self._messages = df
        return self._messages

    @property
    def host(self) -> pd.DataFrame:
        """host.csv: one row per host, its CPU and memory-bus counters."""
        if self._host is None:
            import pandas as pd

            self._host = pd.read_csv(os.path.join(self.out_dir, "host.csv"))
        return self._host

    @property
    def queues(self) -> pd.DataFrame:
        """queues.csv: one row per port (node towards peer), its queue disc's and device queue's counters."""
        if self._queues is None:
            import pandas as pd

            self._queues = pd.read_csv(os.path.join(self.out_dir, "queues.csv"))
        return self._queues

    def workload(self, name: str) -> dict[str, Any]:
        """The summary.json entry of one workload, by name."""
        for w in self.summary["workloads"]:
            if w["name"] == name:
                return w
        raise KeyError(name)

    def __repr__(self) -> str:
        return "Result(%r)" % self.out_dir


_simulations_here = 0  # run() calls of this process so far


def _warn_if_not_first() -> None:
    """Say once when a process runs its second simulation: ns-3 numbers the random streams it assigns itself per
    process and cannot restart the count, so that run draws other random numbers than `iwarp-sim run` or a fresh
    process would (its figures are valid, but not those of the same scenario run alone; sweep() runs each point
    in a process of its own)."""
    global _simulations_here
    _simulations_here += 1
    if _simulations_here == 2:
        warnings.warn("iwarpsim.run: a second simulation in this process draws other random numbers than the same "
                      "scenario run alone (iwarp-sim run, or a new process); sweep() runs each point in a process "
                      "of its own", RuntimeWarning, stacklevel=3)


def run(scenario: Scenario, overrides: Overrides | None = None, out_dir: StrPath | None = None,
        progress: bool = False) -> Result:
    """Run one scenario and return its Result.

    scenario:  a dict (the YAML file's structure), YAML text, or the path of a scenario file.
    overrides: {"dot.path": value} or ["dot.path=value", ...]: iwarp-sim's --set (doc/scenario-format.md).
    out_dir:   the results folder to create (must not exist); None: a new temporary folder
               (tempfile's directory, iwarpsim-*/results) that lives as long as the returned Result:
               it is removed when the Result is garbage-collected or at exit (Result.save keeps a copy).
    Raises ScenarioError (a ValueError, the CLI's message: file:line:col: key: detail) for a bad scenario;
    a run that raises leaves no folder behind.
    Blocks other run() calls of this process while it simulates (ns-3 has one simulator per process).
    Only a process's first simulation draws the random numbers `iwarp-sim run` does: ns-3 numbers the streams it
    assigns itself per process, so a second run() of the same scenario gives other (valid) figures, and run()
    says so with a RuntimeWarning; run each in a new process (sweep() does) to compare like with like.
    """
    overrides = overrides if overrides is not None else {}
    _warn_if_not_first()
    if out_dir is not None:
        return Result(_iwarpsim.run(scenario, overrides, os.fspath(out_dir), progress)["out_dir"])
    tmp = tempfile.mkdtemp(prefix="iwarpsim-")
    try:
        result = Result(_iwarpsim.run(scenario, overrides, os.path.join(tmp, "results"), progress)["out_dir"])
        result._own(tmp)
    except BaseException:  # a bad scenario, a failed run, Ctrl-C: nothing to keep
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return result
