"""iwarpsim: run iwarp-ns3 scenarios from Python, sweep their parameters, plot the results.

    import iwarpsim
    r = iwarpsim.run({"stop": "2ms", "topology": {"kind": "two-hosts"},
                      "workloads": [{"kind": "ping-pong", "from": "h0", "to": "h1", "size": "4KiB", "count": 10}]})
    r.summary["workloads"][0]["latency_by_size"][0]["p50"]; r.messages; r.host; r.out_dir; r.save("kept")

    df = iwarpsim.sweep(base, grid={"workloads.0.size": ["64", "4KiB"]}, repeats=2, jobs=2)

The compiled part is the module _iwarpsim beside this file (built by CMake into build/python/iwarpsim).
ns-3's simulator is a process-wide singleton: one simulation per process at a time (run() holds a lock);
sweep() runs points in separate processes (or Dask workers) to go parallel.
"""
from ._core import Result, ResultsError, ScenarioError, run, to_yaml, workload_kinds
from .sweep import sweep

__all__ = ["run", "sweep", "Result", "ScenarioError", "ResultsError", "to_yaml", "workload_kinds"]
