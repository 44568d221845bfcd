"""Each sweep point runs in a process of its own, so its figures are those `iwarp-sim run` gives.

Reproduced on f61b837: a simulation after another in one process draws other random numbers (ns-3 numbers the
random streams it assigns itself, RED's among them, per process, and cannot restart the count). A sweep's worker
ran point after point, so a point's figures depended on which points its worker had run before: the RoCE study's
SCTP row at loss 0 read 93 of 94 flows delivered after one order of points and 94 after another, and running the
same point twice in one process gave 215 and then 291 retransmissions.
"""
import json
import os
import subprocess
import warnings

import pytest

import iwarpsim
import iwarpsim._core as core

from conftest import ROOT

SCENARIO = os.path.join(ROOT, "scenarios", "roce-web-search.yaml")  # RED ports: their marks are random draws
SHORT = {"workloads.0.duration": "2ms", "stop": "20ms"}
RUN_COLUMNS = ["wall_time_s", "out_dir", "cached", "workloads.0.llp"]
SIM = os.path.join(ROOT, "build", "iwarp-sim")


def _row(df, llp):
    rows = df[df["workloads.0.llp"] == llp].drop(columns=RUN_COLUMNS, errors="ignore")
    assert len(rows) == 1
    return {k: (None if v != v else v) for k, v in rows.iloc[0].to_dict().items()}  # NaN: no value


def test_a_point_after_another_gives_what_it_gives_alone(tmp_path):
    after = iwarpsim.sweep(SCENARIO, grid=dict(SHORT, **{"workloads.0.llp": ["sctp", "tcp"]}), jobs=1,
                           cache_dir=tmp_path / "a", progress=False)
    alone = iwarpsim.sweep(SCENARIO, grid=dict(SHORT, **{"workloads.0.llp": ["tcp"]}), jobs=1,
                           cache_dir=tmp_path / "b", progress=False)
    assert _row(after, "tcp") == _row(alone, "tcp")
    # and what the command line gives for the same point (the sweep sets the seed: 1)
    out = tmp_path / "cli"
    args = [SIM, "run", SCENARIO, "--out", str(out), "--quiet", "--set", "seed=1", "--set", "workloads.0.llp=sctp"]
    for key, value in SHORT.items():
        args += ["--set", "%s=%s" % (key, value)]
    subprocess.run(args, check=True, capture_output=True)
    with open(out / "summary.json") as f:
        cli = json.load(f)["workloads"][0]
    sctp = _row(after, "sctp")
    assert sctp["retransmissions"] == cli["retransmissions"]["total"]
    assert sctp["octets_delivered"] == cli["octets"]["delivered"]


def test_run_warns_when_it_is_not_the_process_first(tiny, monkeypatch):
    monkeypatch.setattr(core, "_simulations_here", 0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the first simulation of a process says nothing
        iwarpsim.run(tiny)
    with pytest.warns(RuntimeWarning, match="a second simulation in this process draws other random numbers"):
        iwarpsim.run(tiny)
