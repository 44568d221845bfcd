"""The workload kinds as the runner's registry describes them (iwarpsim.workload_kinds(), iwarp-sim
workloads --json), and the sweep rows that read them instead of naming kinds."""
import json
import math
import os
import subprocess

import pytest

import iwarpsim
from iwarpsim import _core
from iwarpsim.sweep import rows_from_results

BUILT_IN = ["ping-pong", "stream", "read", "sockets-stream", "sockets-ping-pong", "incast", "inject", "traffic",
            "sockets-traffic", "collective"]


def test_built_in_kinds_in_their_documented_order():
    kinds = iwarpsim.workload_kinds()
    assert [k["name"] for k in kinds] == BUILT_IN  # this process registered no other kind
    by = {k["name"]: k for k in kinds}
    assert [n for n in BUILT_IN if by[n]["ping_pong"]] == ["ping-pong", "sockets-ping-pong"]
    assert [n for n in BUILT_IN if by[n]["many_senders"]] == ["incast"]
    assert [n for n in BUILT_IN if by[n]["host_group"]] == ["traffic", "sockets-traffic", "collective"]
    assert {n: by[n]["family"] for n in BUILT_IN} == {
        "ping-pong": "rdma", "stream": "rdma", "read": "rdma", "incast": "rdma", "traffic": "rdma",
        "collective": "rdma",
        "sockets-stream": "sockets", "sockets-ping-pong": "sockets", "sockets-traffic": "sockets",
        "inject": "inject"}
    assert by["read"]["ops"] == ["read"] and by["stream"]["ops"] == ["write", "send", "read"]
    assert by["traffic"]["ops"] == ["write", "send"] and by["sockets-traffic"]["ops"] == []
    assert by["sockets-stream"]["min_size"] == 16 and by["sockets-stream"]["ops"] == []
    assert "llp" not in [key["name"] for key in by["sockets-stream"]["keys"]]
    assert "llp" not in [key["name"] for key in by["sockets-traffic"]["keys"]]
    assert [key["name"] for key in by["sockets-traffic"]["keys"]] == \
        [key["name"] for key in by["traffic"]["keys"] if key["name"] not in ("op", "llp")]  # the same load, its baseline
    assert by["ping-pong"]["metrics"] == ["latency_by_size"]
    for k in kinds:
        names = [key["name"] for key in k["keys"]]
        assert len(names) == len(set(names)), k["name"]
        assert all(key["shape"] in ("scalar", "list", "map") for key in k["keys"])


def test_cli_prints_the_same_kinds(root):
    cli = os.path.join(root, "build", "iwarp-sim")
    if not os.path.exists(cli):
        pytest.skip("iwarp-sim is not built")
    out = subprocess.run([cli, "workloads", "--json"], check=True, capture_output=True, text=True).stdout
    assert json.loads(out) == iwarpsim.workload_kinds()
    text = subprocess.run([cli, "workloads"], check=True, capture_output=True, text=True).stdout
    assert [line.split(" ")[0] for line in text.splitlines() if not line.startswith(" ")] == BUILT_IN


def test_every_key_of_a_kind_is_accepted_by_the_loader(tiny):
    # The schema is built from the same registry: each kind's scalar keys pass the unknown-key check
    # (a value error may follow, but never "unknown key" nor "does not apply").
    for k in iwarpsim.workload_kinds():
        for key in k["keys"]:
            s = dict(tiny, workloads=[{"kind": k["name"], key["name"]: "?"}])
            try:
                iwarpsim.run(s)
            except iwarpsim.ScenarioError as e:
                assert "unknown key" not in str(e) and "does not apply" not in str(e), (k["name"], str(e))


def _folder(tmp_path, kind, spec, workload, flows=(("h0", "h1"),)):
    d = tmp_path / "r"
    d.mkdir(parents=True)
    (d / "scenario.yaml").write_text(json.dumps({"workloads": [dict(spec, name="w", kind=kind)]}))
    w = {"name": "w", "kind": kind, "op": "write", "llp": "tcp", "completed": True,
         "data_flows": [{"source": a, "sink": b} for a, b in flows],
         "messages": {"posted": 1, "delivered": 1}, "octets": {"delivered": 64}, "latency_by_size": []}
    w.update(workload)
    summary = {"format": iwarpsim.SUMMARY_FORMAT, "workloads": [w],
               "hosts": [{"node": h, "cpu_busy_ns": [1], "bus_bytes": 1, "counters": {}} for h in ("h0", "h1", "h2")]}
    (d / "summary.json").write_text(json.dumps(summary))
    return str(d)


def test_rows_follow_the_registry_not_kind_names(tmp_path, monkeypatch):
    # A kind the runner might register: the rows take its metrics from its description (NaN for those of other
    # kinds), its hosts from the data flows the runner wrote.
    extra = [{"name": "fan-in", "many_senders": True, "ping_pong": False, "metrics": ["goodput_bps"]},
             {"name": "echo", "many_senders": False, "ping_pong": True, "metrics": ["latency_by_size"]}]
    monkeypatch.setattr(_core, "workload_kinds", lambda: extra)
    (row,) = rows_from_results(_folder(tmp_path, "fan-in", {"senders": ["h0", "h2"], "to": "h1"}, {},
                                       flows=(("h0", "h1"), ("h2", "h1"))))
    assert (row["src_hosts"], row["dst_hosts"]) == ("h0,h2", "h1")
    assert row["goodput_bps"] is None and math.isnan(row["latency_count"])
    (row,) = rows_from_results(_folder(tmp_path / "b", "echo", {"from": "h0", "to": "h1"}, {"goodput_bps": 1.0}))
    assert row["latency_count"] == 0 and math.isnan(row["goodput_bps"])  # a ping-pong that measured nothing


def test_an_unknown_kind_is_a_plain_row(tmp_path):
    (row,) = rows_from_results(_folder(tmp_path, "no-such-kind", {"from": "h0", "to": "h1"}, {"goodput_bps": 1.0}))
    assert (row["src_hosts"], row["dst_hosts"], row["kind"]) == ("h0", "h1", "no-such-kind")
    assert math.isnan(row["goodput_bps"]) and math.isnan(row["latency_count"])  # it declares no metric
