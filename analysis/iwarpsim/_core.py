"""run(): one simulation in this process through the compiled _iwarpsim module; Result: its results folder."""
import json
import os
import tempfile

from . import _iwarpsim

ScenarioError = _iwarpsim.ScenarioError
ResultsError = _iwarpsim.ResultsError


def to_yaml(scenario):
    """The YAML text the runner loads for a scenario dict."""
    return _iwarpsim.to_yaml(scenario)


class Result:
    """A results folder (doc/scenario-format.md): summary.json as a dict, the CSVs as pandas DataFrames."""

    def __init__(self, out_dir):
        self.out_dir = os.fspath(out_dir)
        with open(os.path.join(self.out_dir, "summary.json")) as f:
            self.summary = json.load(f)
        self._messages = None
        self._host = None

    @property
    def messages(self):
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
    def host(self):
        """host.csv: one row per host, its CPU and memory-bus counters."""
        if self._host is None:
            import pandas as pd

            self._host = pd.read_csv(os.path.join(self.out_dir, "host.csv"))
        return self._host

    def workload(self, name):
        """The summary.json entry of one workload, by name."""
        for w in self.summary["workloads"]:
            if w["name"] == name:
                return w
        raise KeyError(name)

    def __repr__(self):
        return "Result(%r)" % self.out_dir


def run(scenario, overrides=None, out_dir=None, progress=False):
    """Run one scenario and return its Result.

    scenario:  a dict (the YAML file's structure), YAML text, or the path of a scenario file.
    overrides: {"dot.path": value} or ["dot.path=value", ...]: iwarp-sim's --set (doc/scenario-format.md).
    out_dir:   the results folder to create (must not exist); None: a new temporary folder.
    Raises ScenarioError (a ValueError, the CLI's message: file:line:col: key: detail) for a bad scenario.
    Blocks other run() calls of this process while it simulates (ns-3 has one simulator per process).
    """
    if out_dir is None:
        out_dir = os.path.join(tempfile.mkdtemp(prefix="iwarpsim-"), "results")
    r = _iwarpsim.run(scenario, overrides if overrides is not None else {}, os.fspath(out_dir), progress)
    return Result(r["out_dir"])
