"""iwarpsim.sweep: parallel points, the cache, Dask."""
import os

import iwarpsim

GRID = {"workloads.0.size": ["64", "4KiB"], "links.delay": ["1us", "5us"]}


def test_sweep_parallel_then_cached(tiny, tmp_path):
    cache = tmp_path / "cache"
    df = iwarpsim.sweep(tiny, grid=GRID, jobs=2, cache_dir=cache, progress=False)
    assert df.attrs["simulated"] == 4 and df.attrs["cached"] == 0
    assert len(df) == 4
    for c in ["workloads.0.size", "links.delay", "repeat", "seed", "workload", "throughput_bps",
              "latency_p50_ns", "latency_p99_ns", "messages", "bytes", "src_cpu_busy_ns_per_byte",
              "dst_bus_bytes_per_byte", "src_cpu_cycles_per_byte"]:
        assert c in df.columns, c
    assert set(df["seed"]) == {1}
    # a longer delay, a longer latency; the grid values are in the rows
    lat = df.set_index(["workloads.0.size", "links.delay"])["latency_p50_ns"]
    assert lat[("64", "5us")] > lat[("64", "1us")] + 3000
    assert len(os.listdir(cache)) == 4

    stamps = {d: os.stat(cache / d / "rows.json").st_mtime_ns for d in os.listdir(cache)}
    again = iwarpsim.sweep(tiny, grid=GRID, jobs=2, cache_dir=cache, progress=False)
    assert again.attrs["simulated"] == 0 and again.attrs["cached"] == 4
    assert again["cached"].all()
    assert stamps == {d: os.stat(cache / d / "rows.json").st_mtime_ns for d in os.listdir(cache)}
    cols = ["workloads.0.size", "links.delay", "latency_p50_ns", "messages"]
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
    assert (df["messages"] > 0).all()
