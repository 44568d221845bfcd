"""The sweep's rows are one tidy table: every row has every column whatever its kind, the metric columns come from
the metrics the workload kinds declare (workload_kinds(), "metrics") by one flattening rule, and NaN stands where
a metric does not apply to the row's kind (analysis/iwarpsim/_rows.py)."""
import copy
import json
import math
import os

import pytest

import iwarpsim
from iwarpsim import _core
from iwarpsim.sweep import rows_from_results

# The column names users and plot.py read: none of them changes.
METRIC_COLUMNS = ["goodput_bps", "goodput_window_bps", "longest_stall_ns", "fct_p50_ns", "fct_p99_ns", "fct_mean_ns",
                  "sender_completion_p50_ns", "latency_p50_ns", "latency_p99_ns", "latency_mean_ns",
                  "latency_max_ns", "latency_count"]
OTHER_COLUMNS = ["workload", "kind", "op", "llp", "size", "messages_posted", "messages_delivered", "octets_delivered",
                 "completed", "retransmissions", "retransmissions_fast", "retransmissions_timeout", "rto_expirations",
                 "terminates", "checks_failed", "src_hosts", "dst_hosts", "src_cpu_busy_ns_per_byte",
                 "dst_cpu_busy_ns_per_byte", "src_cpu_cycles_per_byte", "dst_cpu_cycles_per_byte",
                 "src_bus_bytes_per_byte", "dst_bus_bytes_per_byte", "wall_time_s", "events"]
STREAM_ONLY = ["goodput_bps", "goodput_window_bps", "longest_stall_ns", "fct_p50_ns", "fct_p99_ns", "fct_mean_ns"]
PING_PONG_ONLY = ["latency_p50_ns", "latency_p99_ns", "latency_mean_ns", "latency_max_ns", "latency_count"]


def _nan(x):
    return isinstance(x, float) and math.isnan(x)


def _stats(p50, count=4):
    if p50 is None:  # no sample: every statistic null
        return {"count": count, "p50": None, "p99": None, "mean": None, "max": None}
    return {"count": count, "p50": p50, "p99": p50 + 1, "mean": p50 + 0.5, "max": p50 + 1}


def _workload(name, kind, op, **kw):
    w = {"name": name, "kind": kind, "op": op, "llp": "tcp", "data_flows": [{"source": "h0", "sink": "h1"}],
         "messages": {"posted": 4, "delivered": 4, "completed": 4, "outstanding": 0, "flushed": 0},
         "octets": {"posted": 4096, "delivered": 4096}, "completed": True, "goodput_bps": 1e9,
         "goodput_window_bps": 2e9, "fct_ns": _stats(10000), "sender_completion_ns": _stats(900),
         "latency_by_size": [], "retransmissions": {"total": 0, "fast": 0, "timeout": 0, "rto_expirations": 0},
         "terminates": []}
    w.update(kw)
    return w


def _folder(path, workloads):
    """A results folder as the runner writes one: every workload has every field, whatever its kind."""
    path.mkdir()
    specs = [{"name": w["name"], "kind": w["kind"], "from": "h0", "to": "h1", "size": "1KiB"} for w in workloads]
    (path / "scenario.yaml").write_text(json.dumps({"workloads": specs}))  # JSON is YAML
    summary = {"format": iwarpsim.SUMMARY_FORMAT, "wall_time_s": 0.5, "events": 10, "checks_failed": 0,
               "workloads": workloads,
               "hosts": [{"node": h, "cpu_busy_ns": [8], "bus_bytes": 8, "counters": {}} for h in ("h0", "h1")]}
    (path / "summary.json").write_text(json.dumps(summary))
    return str(path)


@pytest.fixture
def mixed(tmp_path):
    """A stream, a two-size ping-pong (its fct_ns filled in, as the runner does) and an injection."""
    lat = [dict(_stats(3000, 2), size=64), dict(_stats(9000, 2), size=4096)]
    return _folder(tmp_path / "mixed", [
        _workload("bulk", "stream", "write"),
        _workload("pp", "ping-pong", "send", goodput_bps=None, latency_by_size=lat),
        _workload("bad", "inject", "inject", goodput_bps=None, fct_ns=_stats(None, 0), data_flows=[])])


def test_every_row_has_the_same_columns_whatever_its_kind(mixed):
    rows = rows_from_results(mixed)
    assert [(r["workload"], r["size"]) for r in rows] == [("bulk", 1024), ("pp", 64), ("pp", 4096), ("bad", 1024)]
    assert len({tuple(r) for r in rows}) == 1, [sorted(r) for r in rows]  # the same columns, in the same order
    for c in METRIC_COLUMNS + OTHER_COLUMNS:
        assert c in rows[0], c


def test_nan_where_a_metric_does_not_apply(mixed):
    bulk, pp64, pp4k, bad = rows_from_results(mixed)
    assert all(_nan(bulk[c]) for c in PING_PONG_ONLY)
    assert (bulk["goodput_bps"], bulk["goodput_window_bps"], bulk["fct_p50_ns"], bulk["fct_p99_ns"],
            bulk["fct_mean_ns"]) == (1e9, 2e9, 10000, 10001, 10000.5)
    for r, p50 in ((pp64, 3000), (pp4k, 9000)):
        assert all(_nan(r[c]) for c in STREAM_ONLY)  # the summary's fct_ns of a ping-pong is not its metric
        assert (r["latency_p50_ns"], r["latency_p99_ns"], r["latency_mean_ns"], r["latency_max_ns"],
                r["latency_count"]) == (p50, p50 + 1, p50 + 0.5, p50 + 1, 2)
    assert all(_nan(bad[c]) for c in STREAM_ONLY + PING_PONG_ONLY)  # inject declares no metric
    # every workload reports its sender completion, whatever its kind
    assert (bulk["sender_completion_p50_ns"], pp64["sender_completion_p50_ns"], bad["sender_completion_p50_ns"]) \
        == (900, 900, 900)


def test_a_declared_metric_the_summary_left_null_is_none_not_nan(tmp_path):
    (row,) = rows_from_results(_folder(tmp_path / "r", [_workload("w", "incast", "write", goodput_bps=None)]))
    assert row["goodput_bps"] is None and _nan(row["latency_p50_ns"])
    (row,) = rows_from_results(_folder(tmp_path / "p", [_workload("p", "sockets-ping-pong", "sockets")]))
    assert row["latency_count"] == 0 and row["latency_p50_ns"] is None  # it measured nothing
    assert _nan(row["goodput_bps"])


def test_the_distributions_give_every_statistic(mixed):
    bulk, pp64, _, _ = rows_from_results(mixed)
    assert (bulk["fct_max_ns"], bulk["fct_count"]) == (10001, 4)
    assert (bulk["sender_completion_p99_ns"], bulk["sender_completion_count"]) == (901, 4)
    assert _nan(pp64["fct_max_ns"]) and _nan(pp64["fct_count"])


def _with_metrics(extra):
    """The registry's kinds with more metrics declared: {kind: [metric, ...]}."""
    kinds = copy.deepcopy(iwarpsim.workload_kinds())
    for k in kinds:
        k["metrics"] = k["metrics"] + extra.get(k["name"], [])
    return lambda: kinds


def test_a_metric_a_later_build_declares_reaches_the_rows(tmp_path, monkeypatch):
    # Nothing in Python knows widget_ns, gizmo_bps or jitter_by_size: the kinds' declarations bring them in.
    monkeypatch.setattr(_core, "workload_kinds", _with_metrics(
        {"stream": ["widget_ns", "gizmo_bps"], "ping-pong": ["jitter_by_size"]}))
    jitter = [{"size": 4096, "p50": 7, "count": 1}, {"size": 64, "p50": 5, "count": 1}]
    folder = _folder(tmp_path / "r", [
        _workload("bulk", "stream", "write", widget_ns={"p50": 3, "p99": 4}, gizmo_bps=5),
        _workload("pp", "ping-pong", "send", widget_ns={"p50": 30}, gizmo_bps=50, jitter_by_size=jitter,
                  latency_by_size=[dict(_stats(3000, 2), size=64), dict(_stats(9000, 2), size=4096)]),
        _workload("rd", "read", "read", widget_ns={"p50": 300}, gizmo_bps=500)])
    bulk, pp64, pp4k, rd = rows_from_results(folder)
    assert len({tuple(r) for r in (bulk, pp64, pp4k, rd)}) == 1
    assert (bulk["widget_p50_ns"], bulk["widget_p99_ns"], bulk["gizmo_bps"]) == (3, 4, 5)
    assert bulk["widget_mean_ns"] is None  # declared, not in the summary: no sample
    for r in (pp64, pp4k, rd):  # they do not declare them
        assert _nan(r["widget_p50_ns"]) and _nan(r["gizmo_bps"])
    # a per-key list: its entries join the rows of the same key value
    assert [(r["size"], r["latency_p50_ns"], r["jitter_p50_ns"], r["jitter_count"]) for r in (pp64, pp4k)] \
        == [(64, 3000, 5, 1), (4096, 9000, 7, 1)]
    assert _nan(bulk["jitter_p50_ns"]) and _nan(rd["jitter_count"])


def test_the_metric_columns_are_those_the_kinds_declare(mixed, monkeypatch):
    # A build whose stream kind reports only goodput: no FCT column, and no latency one without a ping-pong kind.
    kinds = [{"name": "stream", "metrics": ["goodput_bps"]}, {"name": "ping-pong", "metrics": []}]
    monkeypatch.setattr(_core, "workload_kinds", lambda: kinds)
    rows = rows_from_results(mixed)
    assert [r["workload"] for r in rows] == ["bulk", "pp", "bad"]  # no per-key metric declared: a row each
    for c in ["fct_p50_ns", "latency_p50_ns", "latency_count", "goodput_window_bps"]:
        assert c not in rows[0], c
    assert rows[0]["goodput_bps"] == 1e9 and _nan(rows[1]["goodput_bps"]) and _nan(rows[2]["goodput_bps"])


MIXED = {
    "name": "mixed", "stop": "5ms", "topology": {"kind": "two-hosts"}, "links": {"rate": "10Gbps", "delay": "2us"},
    "workloads": [{"name": "pp", "kind": "ping-pong", "from": "h0", "to": "h1", "op": "send", "sizes": ["64", "1KiB"],
                   "count": 3},
                  {"name": "bulk", "kind": "stream", "from": "h0", "to": "h1", "op": "write", "size": "4KiB",
                   "count": 4}]}


def test_a_sweep_of_a_stream_and_a_ping_pong_is_one_table(tmp_path):
    df = iwarpsim.sweep(MIXED, grid={"links.delay": ["1us"]}, jobs=1, cache_dir=tmp_path / "cache", progress=False)
    assert list(df["workload"]) == ["pp", "pp", "bulk"] and list(df["size"]) == [64, 1024, 4096]
    for c in METRIC_COLUMNS + OTHER_COLUMNS + ["links.delay", "repeat", "seed", "cached", "out_dir"]:
        assert c in df.columns, c
    pp, bulk = df[df["kind"] == "ping-pong"], df[df["kind"] == "stream"]
    assert pp[STREAM_ONLY].isna().all().all() and bulk[PING_PONG_ONLY].isna().all().all()
    assert (pp["latency_count"] == 3).all() and (pp["latency_p50_ns"] > 0).all()
    assert (bulk["goodput_bps"] > 0).all() and (bulk["fct_p50_ns"] > 0).all()
    assert df["sender_completion_p50_ns"].notna().all() and df["completed"].all()
    # the rows the point keeps (rows.json beside its results folder) have the same columns, not only the frame
    (out_dir,) = set(df["out_dir"])
    with open(os.path.join(os.path.dirname(out_dir), "rows.json")) as f:
        kept = json.load(f)
    assert len(kept) == 3 and len({tuple(r) for r in kept}) == 1
