"""iwarpsim.sweep: parallel points, the cache, Dask; the rows of a results folder."""
import json
import os

import pytest

import iwarpsim
from iwarpsim.sweep import rows_from_results, size_octets

GRID = {"workloads.0.size": ["64", "4KiB"], "links.delay": ["1us", "5us"]}


def test_sweep_parallel_then_cached(tiny, tmp_path):
    cache = tmp_path / "cache"
    df = iwarpsim.sweep(tiny, grid=GRID, jobs=2, cache_dir=cache, progress=False)
    assert df.attrs["simulated"] == 4 and df.attrs["cached"] == 0
    assert len(df) == 4
    for c in ["workloads.0.size", "links.delay", "repeat", "seed", "workload", "size", "latency_p50_ns",
              "latency_p99_ns", "latency_mean_ns", "latency_max_ns", "latency_count", "messages_posted",
              "messages_delivered", "octets_delivered", "completed", "retransmissions", "checks_failed",
              "src_cpu_busy_ns_per_byte", "dst_bus_bytes_per_byte", "src_cpu_cycles_per_byte"]:
        assert c in df.columns, c
    for gone in ["throughput_bps", "bytes", "messages"]:
        assert gone not in df.columns, gone
    # every row has every column: a ping-pong's goodput and FCT are NaN, not missing (test_rows.py)
    assert df[["goodput_bps", "goodput_window_bps", "fct_p50_ns", "fct_p99_ns", "fct_mean_ns"]].isna().all().all()
    assert df["completed"].all() and (df["checks_failed"] == 0).all()
    assert sorted(set(df["size"])) == [64, 4096]
    assert set(df["seed"]) == {1}
    # a longer delay, a longer latency; the grid values are in the rows
    lat = df.set_index(["workloads.0.size", "links.delay"])["latency_p50_ns"]
    assert lat[("64", "5us")] > lat[("64", "1us")] + 3000
    points = sorted(set(os.listdir(cache)) - {"costs"})  # costs/: what each point took (test_sweep_order.py)
    assert len(points) == 4

    stamps = {d: os.stat(cache / d / "rows.json").st_mtime_ns for d in points}
    again = iwarpsim.sweep(tiny, grid=GRID, jobs=2, cache_dir=cache, progress=False)
    assert again.attrs["simulated"] == 0 and again.attrs["cached"] == 4
    assert again["cached"].all()
    assert stamps == {d: os.stat(cache / d / "rows.json").st_mtime_ns for d in points}
    assert sorted(set(os.listdir(cache)) - {"costs"}) == points
    cols = ["workloads.0.size", "links.delay", "latency_p50_ns", "messages_delivered"]
    assert again[cols].equals(df[cols])

    # a new size and a second repeat: only the runs not in the cache simulate
    more = iwarpsim.sweep(tiny, grid={"workloads.0.size": ["64", "1KiB"], "links.delay": ["1us"]}, repeats=2,
                          jobs=2, cache_dir=cache, progress=False)
    # cached: (64, 1us, seed 1); new: (64, 1us, seed 2), (1KiB, 1us, seeds 1 and 2)
    assert (more.attrs["simulated"], more.attrs["cached"]) == (3, 1)
    assert sorted(set(more["seed"])) == [1, 2]


def test_sweep_on_local_dask_cluster(tiny, tmp_path):
    df = iwarpsim.sweep(tiny, grid={"workloads.0.size": ["64", "1KiB"]}, dask=True, jobs=2,
                        cache_dir=tmp_path / "cache", progress=False)
    assert df.attrs["simulated"] == 2
    assert sorted(df["workloads.0.size"]) == ["1KiB", "64"]
    assert (df["messages_delivered"] > 0).all()


# ------------------------------------------------------------------ rows of a results folder (this format)
def _stats(p50, p99, mean, mx, count):
    return {"count": count, "p50": p50, "p99": p99, "mean": mean, "max": mx}


def _flows(*pairs):
    return [{"source": a, "sink": b} for a, b in pairs]


def _workload(name, kind, op, flows, **kw):
    w = {"name": name, "kind": kind, "op": op, "llp": "tcp", "data_flows": flows,
         "messages": {"posted": 4, "delivered": 4, "completed": 4, "outstanding": 0, "flushed": 0},
         "octets": {"posted": 4096, "delivered": 4096}, "completed": True,
         "goodput_bps": 1e9, "goodput_window_bps": None, "first_post_ns": 1000, "last_delivery_ns": 33768,
         "fct_ns": _stats(10000, 20000, 12000.5, 20000, 4), "sender_completion_ns": _stats(900, 950, 910, 950, 4),
         "latency_by_size": [], "retransmissions": {"total": 3, "fast": 2, "timeout": 1, "rto_expirations": 1},
         "terminates": []}
    w.update(kw)
    return w


@pytest.fixture
def results_folder(tmp_path):
    """A hand-written results folder: a Write stream, an incast, a two-size ping-pong, a Read."""
    d = tmp_path / "results"
    d.mkdir()
    scenario = {"workloads": [
        {"name": "bulk", "kind": "stream", "from": "h0", "to": "h1", "op": "write", "size": "1KiB"},
        {"name": "in", "kind": "incast", "senders": ["h2", "h3"], "to": "h1", "size": "64"},
        {"kind": "ping-pong", "from": "h0", "to": "h1", "sizes": ["64", "4KiB"]},
        {"name": "rd", "kind": "read", "from": "h0", "to": "h3", "size": "2KiB"}]}
    (d / "scenario.yaml").write_text(json.dumps(scenario))  # JSON is YAML
    summary = {
        "format": iwarpsim.SUMMARY_FORMAT, "wall_time_s": 0.5, "events": 1234, "measure": None, "checks_failed": 1,
        "checks": [{"name": "x", "subject": "bulk", "bound": 1, "value": 2, "unit": "ns", "pass": False,
                    "detail": ""}],
        "drops": {"total": 0, "queue": 0, "impairment": 0, "links": []},
        "workloads": [
            _workload("bulk", "stream", "write", _flows(("h0", "h1")), terminates=[{"time_ns": 5}]),
            _workload("in", "incast", "write", _flows(("h2", "h1"), ("h3", "h1")), completed=False, goodput_bps=None,
                      octets={"posted": 4096, "delivered": 0},
                      messages={"posted": 4, "delivered": 0, "completed": 4, "outstanding": 4, "flushed": 0},
                      fct_ns=_stats(None, None, None, None, 0)),
            _workload("ping-pong-2", "ping-pong", "send", _flows(("h0", "h1")), goodput_bps=None,
                      latency_by_size=[{"size": 64, "count": 2, "p50": 3000, "p99": 3100, "mean": 3050, "max": 3100},
                                       {"size": 4096, "count": 2, "p50": 9000, "p99": 9900, "mean": 9450,
                                        "max": 9900}]),
            _workload("rd", "read", "read", _flows(("h3", "h0")))],
        "hosts": [{"node": "h0", "cpu_busy_ns": [2048, 2048], "bus_bytes": 8192, "counters": {"cpu_cycles": 409.6}},
                  {"node": "h1", "cpu_busy_ns": [1024], "bus_bytes": 4096, "counters": {}},
                  {"node": "h2", "cpu_busy_ns": [1], "bus_bytes": 1, "counters": {}},
                  {"node": "h3", "cpu_busy_ns": [1], "bus_bytes": 1, "counters": {}}],
    }
    (d / "summary.json").write_text(json.dumps(summary))
    return d


def test_rows_name_what_they_measure(results_folder):
    rows = rows_from_results(str(results_folder))
    assert [(r["workload"], r["size"]) for r in rows] == [("bulk", 1024), ("in", 64), ("ping-pong-2", 64),
                                                          ("ping-pong-2", 4096), ("rd", 2048)]
    bulk = rows[0]
    assert (bulk["messages_posted"], bulk["messages_delivered"], bulk["octets_delivered"]) == (4, 4, 4096)
    assert bulk["goodput_bps"] == 1e9 and bulk["goodput_window_bps"] is None and bulk["completed"] is True
    assert (bulk["fct_p50_ns"], bulk["fct_p99_ns"], bulk["fct_mean_ns"]) == (10000, 20000, 12000.5)
    assert bulk["sender_completion_p50_ns"] == 900
    assert (bulk["retransmissions"], bulk["retransmissions_fast"], bulk["retransmissions_timeout"],
            bulk["rto_expirations"]) == (3, 2, 1, 1)
    assert bulk["terminates"] == 1 and bulk["checks_failed"] == 1 and bulk["llp"] == "tcp"
    # the host costs are over the octets delivered at the sink
    assert bulk["src_cpu_busy_ns_per_byte"] == 1.0 and bulk["src_bus_bytes_per_byte"] == 2.0
    assert bulk["src_cpu_cycles_per_byte"] == 0.1 and bulk["dst_cpu_busy_ns_per_byte"] == 0.25
    for old in ("bytes", "throughput_bps", "messages"):
        assert old not in bulk
    assert bulk["latency_p50_ns"] != bulk["latency_p50_ns"]  # NaN: a stream declares no latency


def test_rows_of_an_incast_that_delivered_nothing(results_folder):
    inc = rows_from_results(str(results_folder))[1]
    assert (inc["src_hosts"], inc["dst_hosts"]) == ("h2,h3", "h1")
    assert inc["completed"] is False and inc["goodput_bps"] is None and inc["fct_p50_ns"] is None
    assert inc["octets_delivered"] == 0 and inc["src_cpu_busy_ns_per_byte"] != inc["src_cpu_busy_ns_per_byte"]  # nan


def test_ping_pong_gives_one_row_per_size(results_folder):
    pp = [r for r in rows_from_results(str(results_folder)) if r["kind"] == "ping-pong"]
    assert [(r["size"], r["latency_p50_ns"], r["latency_p99_ns"], r["latency_mean_ns"], r["latency_max_ns"],
             r["latency_count"]) for r in pp] == [(64, 3000, 3100, 3050, 3100, 2), (4096, 9000, 9900, 9450, 9900, 2)]
    for r in pp:  # NaN: the FCT and goodput of a request/response exchange are not its metrics
        assert r["goodput_bps"] != r["goodput_bps"] and r["fct_p50_ns"] != r["fct_p50_ns"]


def test_rows_take_the_hosts_from_the_data_flows(results_folder):
    # The runner states which way a Read's data flows (data_flows); the rows repeat no rule of their own.
    rd = rows_from_results(str(results_folder))[-1]
    assert (rd["src_hosts"], rd["dst_hosts"]) == ("h3", "h0")
    assert rd["latency_p50_ns"] != rd["latency_p50_ns"] and rd["fct_p50_ns"] == 10000  # NaN: not a Read's


@pytest.mark.parametrize("older", [1, 2])
def test_results_of_an_older_format_are_refused(results_folder, older):
    # format 2 had no data_flows, which the rows now take their hosts from
    s = json.loads((results_folder / "summary.json").read_text())
    s["format"] = older
    (results_folder / "summary.json").write_text(json.dumps(s))
    with pytest.raises(ValueError, match="format %d, this iwarpsim reads format %d" % (older, iwarpsim.SUMMARY_FORMAT)):
        rows_from_results(str(results_folder))


def test_size_octets():
    assert [size_octets(x) for x in ("64", "4KiB", "1MB", 512, "1.5KiB")] == [64, 4096, 10**6, 512, 1536]
    assert size_octets(None) is None and size_octets(["64"]) is None and size_octets("big") is None
    # The loader's parser, not a second one: what it refuses is no size here either (0de3e0e took "4kib").
    assert size_octets("4kib") is None and size_octets("0.5B") is None


def test_the_loaders_parsers_are_pythons():
    from iwarpsim import _iwarpsim

    assert _iwarpsim.parse_size("1.5MiB") == 1572864
    assert _iwarpsim.parse_time_ns("2.5us") == 2500 and _iwarpsim.parse_rate_bps("10Gbps") == 10**10
    with pytest.raises(ValueError, match=r"unknown unit 'kib' in size \"4kib\""):
        _iwarpsim.parse_size("4kib")
    with pytest.raises(ValueError, match="time"):
        _iwarpsim.parse_time_ns("10")
