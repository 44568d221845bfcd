"""iwarpsim.run through the compiled module: dict, YAML text and file scenarios; errors as in the CLI."""
import copy
import os
import subprocess
import threading

import pytest

import iwarpsim
from iwarpsim import _iwarpsim


def test_run_dict_round_trip(tiny, tmp_path):
    r = iwarpsim.run(tiny, out_dir=tmp_path / "out")
    assert r.out_dir == str(tmp_path / "out")
    assert sorted(os.listdir(r.out_dir)) == ["host.csv", "messages.csv", "queues.csv", "scenario.yaml", "summary.json"]
    (w,) = r.summary["workloads"]
    assert r.summary["scenario"] == "tiny"
    assert r.summary["format"] == iwarpsim.SUMMARY_FORMAT == 4
    assert w["data_flows"] == [{"source": "h0", "sink": "h1"}]
    assert w["kind"] == "ping-pong" and w["messages"]["delivered"] > 0
    (lat,) = w["latency_by_size"]
    assert lat["size"] == 4096 and lat["p50"] > 2000  # at least the 2 us propagation delay
    assert len(r.messages) > 0 and set(r.messages["workload"]) == {w["name"]}
    assert r.messages["size_bytes"].eq(4096).all()
    assert r.messages["fct_ns"].dtype == "Int64"
    assert list(r.host["node"]) == ["h0", "h1"]
    # Each host's NIC: the default unlimited FIFO, which carried the ping-pong and dropped nothing.
    assert list(r.queues["node"]) == ["h0", "h1"] and list(r.queues["peer"]) == ["h1", "h0"]
    assert set(r.queues["kind"]) == {"fifo"} and set(r.queues["limit"]) == {"unlimited"}
    assert r.queues["enqueued"].gt(0).all() and r.queues["dropped"].eq(0).all()


def test_run_path_with_overrides(tiny, tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(iwarpsim.to_yaml(tiny))
    r = iwarpsim.run(str(path), overrides={"workloads.0.size": "1KiB", "seed": 7})
    assert r.summary["seed"] == 7
    assert r.summary["overrides"] == ["workloads.0.size=1KiB", "seed=7"]
    assert r.messages["size_bytes"].eq(1024).all()
    # a pathlib.Path, and list-style overrides, work too
    r2 = iwarpsim.run(path, overrides=["workloads.0.count=2"])
    assert r2.summary["workloads"][0]["messages"]["posted"] < r.summary["workloads"][0]["messages"]["posted"]


def test_run_yaml_text(tiny):
    r = iwarpsim.run(iwarpsim.to_yaml(tiny))
    assert r.summary["workloads"][0]["messages"]["delivered"] > 0


def test_example_scenario_file(root):
    path = os.path.join(root, "examples", "scenarios", "two-hosts-ping-pong.yaml")
    r = iwarpsim.run(path, overrides={"workloads.0.count": 3, "workloads.0.sizes": ["64", "1KiB"], "stop": "5ms"})
    assert r.summary["scenario"] == "two-hosts-ping-pong"
    assert set(r.messages["size_bytes"]) == {64, 1024}
    assert [x["size"] for x in r.summary["workloads"][0]["latency_by_size"]] == [64, 1024]


def test_bad_scenario_raises_scenario_error_like_the_cli(tiny, tmp_path, root):
    tiny["workloads"][0]["sise"] = "4KiB"
    with pytest.raises(iwarpsim.ScenarioError) as e:
        iwarpsim.run(tiny)
    assert isinstance(e.value, ValueError)
    assert "workloads.0.sise" in str(e.value) and "did you mean 'size'" in str(e.value)
    assert str(e.value).startswith("<dict>:")

    # the same file through the CLI: the same message
    path = tmp_path / "bad.yaml"
    path.write_text(iwarpsim.to_yaml(tiny))
    with pytest.raises(iwarpsim.ScenarioError) as e2:
        iwarpsim.run(str(path))
    cli = subprocess.run([os.path.join(root, "build", "iwarp-sim"), "run", str(path), "--no-progress"],
                         capture_output=True, text=True)
    assert cli.returncode == 2
    assert cli.stderr.strip() == "iwarp-sim: " + str(e2.value)


def test_bad_override_names_the_override(tiny):
    with pytest.raises(ValueError, match=r"--set workloads\.0\.size=-1: workloads\.0\.size: negative size"):
        iwarpsim.run(tiny, overrides={"workloads.0.size": "-1"})


def test_existing_out_dir_is_refused(tiny, tmp_path):
    (tmp_path / "out").mkdir()
    with pytest.raises(iwarpsim.ResultsError, match="already exists"):
        iwarpsim.run(tiny, out_dir=tmp_path / "out")


def test_threads_take_turns(tiny, tmp_path):
    """Two Python threads calling run(): the lock serializes them, both results are complete."""
    out = {}

    def go(i):
        out[i] = iwarpsim.run(tiny, overrides={"seed": i + 1}, out_dir=tmp_path / str(i))

    ts = [threading.Thread(target=go, args=(i,)) for i in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert sorted(out) == [0, 1]
    assert [out[i].summary["seed"] for i in (0, 1)] == [1, 2]


def test_low_level_module():
    assert issubclass(_iwarpsim.ScenarioError, ValueError)
    assert "run" in dir(_iwarpsim)


def test_back_to_back_runs_keep_their_own_settings(tiny):
    """A run's host:/rnic: settings and segment size reach only its own objects (no ns-3 defaults change).

    plain, tuned, plain again: the second plain run must equal the first, and the tuned one must show
    its settings: 3 CPU cores (one busy counter each), a slower engine (TxPerMessage) in the ping-pong's
    latency, and 500-octet segments in the sockets receiver's per-packet CPU cycles.
    """
    plain = copy.deepcopy(tiny)
    plain["workloads"].insert(0, {"kind": "sockets-stream", "from": "h0", "to": "h1", "size": "64KiB", "count": 4})
    # host-2005: no receive aggregation, so every received segment pays the per-packet cost.
    plain["host"] = {"profile": "host-2005"}
    tuned = copy.deepcopy(plain)
    tuned["rnic"] = {"RnicPipeline::TxPerMessage": "5us"}
    tuned["host"] = {"profile": "host-2005", "HostCpuModel::Cores": "3", "TcpSocket::SegmentSize": "500"}

    def seen(config):
        s = iwarpsim.run(config).summary
        return {
            "cores": [len(h["cpu_busy_ns"]) for h in s["hosts"]],
            "receiver_cycles": s["hosts"][1]["counters"]["cpu_cycles"],
            "latency_p50_ns": s["workloads"][1]["latency_by_size"][0]["p50"],
            "transport": s["transport"],
        }

    first = seen(plain)
    mine = seen(tuned)
    again = seen(plain)
    assert again == first, "the tuned run leaked into the next one"
    assert first["cores"] == [2, 2]  # host-2005's
    assert mine["cores"] == [3, 3]
    assert mine["latency_p50_ns"] > first["latency_p50_ns"] + 1000
    # Every received packet costs RxCyclesPerPacket: 500-octet segments make about 3x as many as 1448.
    assert mine["receiver_cycles"] > 2 * first["receiver_cycles"]
    assert mine["transport"] == first["transport"]  # neither sets `transport`
