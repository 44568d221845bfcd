"""The sweep cache is keyed on the simulator's build (issue "One fact, one place"). Reproduced first on
0de3e0e: a two-point sweep, then libiwarp-ns3.so changed on disk (bytes appended, as a rebuild changes
it), then the same sweep: 0 points simulated, 2 read back from the cache, computed by the old build (the
cache key held the scenario, the overrides and the seed only)."""
import importlib
import os

import iwarpsim
import iwarpsim.build_id as bid

sweep_module = importlib.import_module("iwarpsim.sweep")  # the package's name `sweep` is the function

GRID = {"workloads.0.size": [64, 4096]}


def test_build_id_covers_the_module_and_the_library():
    files = bid.loaded_binaries()
    names = [os.path.basename(f) for f in files]
    assert any(n.startswith("_iwarpsim") for n in names), names
    assert any(n.startswith("libiwarp") for n in names), names
    assert bid.build_id() == bid.build_id() == bid.digest_of_files(files)
    assert len(bid.build_id()) == 24 and int(bid.build_id(), 16) >= 0


def test_a_library_replaced_under_the_process_is_read_where_it_is_now(tmp_path):
    # Reproduced on 3af5bac: after a rebuild replaced libiwarp-ns3.so under a running Python, /proc/self/maps
    # named it "PATH (deleted)" and build_id() raised FileNotFoundError on that name.
    lib = tmp_path / "libiwarp-ns3.so"
    lib.write_bytes(b"the new build")
    gone = tmp_path / "libiwarp-old.so"
    maps = [
        "7f00-7f10 r-xp 00000000 08:01 42 %s (deleted)\n" % lib,
        "7f10-7f20 r--p 00000000 08:01 43 %s (deleted)\n" % gone,
        "7f20-7f30 r--p 00000000 08:01 44 /usr/lib/libc.so.6\n",
        "7f30-7f40 rw-p 00000000 00:00 0\n",
    ]
    assert bid.mapped_libraries(maps) == {os.path.realpath(lib)}
    assert len(bid.digest_of_files(bid.mapped_libraries(maps))) == 24


def test_digest_follows_the_contents(tmp_path):
    a, b = tmp_path / "liba.so", tmp_path / "_mod.so"
    a.write_bytes(b"one build")
    b.write_bytes(b"module")
    first = bid.digest_of_files([a, b])
    assert bid.digest_of_files([b, a]) == first  # order does not matter
    a.write_bytes(b"another build")  # a rebuild: new contents (and size, so the stamp changes)
    assert bid.digest_of_files([a, b]) != first
    a.write_bytes(b"one build")
    os.utime(a, ns=(1, 1))  # the same contents under another time: the same build
    assert bid.digest_of_files([a, b]) == first


def test_a_rebuilt_simulator_recomputes_the_sweep(tiny, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    first = iwarpsim.sweep(tiny, grid=GRID, jobs=1, cache_dir=cache, progress=False)
    assert first.attrs["simulated"] == 2
    again = iwarpsim.sweep(tiny, grid=GRID, jobs=1, cache_dir=cache, progress=False)
    assert again.attrs["cached"] == 2 and again.attrs["simulated"] == 0
    # What a rebuild of the C++ code changes: the digest of the binaries.
    monkeypatch.setattr(sweep_module, "build_id", lambda: "0" * 24)
    rebuilt = iwarpsim.sweep(tiny, grid=GRID, jobs=1, cache_dir=cache, progress=False)
    assert rebuilt.attrs["simulated"] == 2 and rebuilt.attrs["cached"] == 0
    assert not rebuilt["cached"].any()
    points = sorted(set(os.listdir(cache)) - {"costs"})
    assert len(points) == 4  # the old build's points stay, beside the new build's
