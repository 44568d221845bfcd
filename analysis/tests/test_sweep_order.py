"""iwarpsim.sweep starts the points it can estimate from cache_dir/costs/ longest first.

The order is read from the executor (what was submitted, in which order), never from timing: the
recorded costs are rewritten by hand, so the expected order does not depend on how fast this machine is.
"""
import concurrent.futures as cf
import json
import multiprocessing
import copy
import os

import pytest

import iwarpsim
from iwarpsim.sweep import COST_FORMAT, _read_cost

GRID = {"workloads.0.size": ["64", "4KiB"], "links.delay": ["1us", "5us"]}
POINTS = [["workloads.0.size=64", "links.delay=1us"], ["workloads.0.size=64", "links.delay=5us"],
          ["workloads.0.size=4KiB", "links.delay=1us"], ["workloads.0.size=4KiB", "links.delay=5us"]]
# what differs with the run (when, where, how long), not with the order: everything else must be equal
RUN_COLUMNS = ["wall_time_s", "out_dir", "cached"]


class RecordingExecutor(cf.ProcessPoolExecutor):
    """One spawned worker, as local_executor(1) makes, that remembers the overrides of each submitted
    point: with one worker the points also run in that order."""

    def __init__(self):
        super().__init__(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        self.submitted = []

    def submit(self, fn, task):
        self.submitted.append(task["overrides"])
        return super().submit(fn, task)


def _sweep(tiny, cache, **kw):
    ex = RecordingExecutor()
    try:
        df = iwarpsim.sweep(tiny, grid=GRID, cache_dir=cache, progress=False, executor=ex, **kw)
    finally:
        ex.shutdown()
    return df, ex.submitted


def _records(cache):
    """{tuple(overrides): (path, record)} of the cost records in cache/costs."""
    out = {}
    for name in os.listdir(cache / "costs"):
        with open(cache / "costs" / name) as f:
            rec = json.load(f)
        out[tuple(rec["overrides"])] = (cache / "costs" / name, rec)
    return out


def _same_rows(a, b):
    a = a.drop(columns=RUN_COLUMNS).reset_index(drop=True)
    b = b.drop(columns=RUN_COLUMNS).reset_index(drop=True)
    assert a.equals(b), (a, b)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The grid run once into an empty cache (no estimate: grid order): its rows and its cost records."""
    from conftest import TINY  # a module-scope fixture cannot use the function-scope `tiny`

    cache = tmp_path_factory.mktemp("reference")
    df, submitted = _sweep(copy.deepcopy(TINY), cache)
    return {"cache": cache, "df": df, "submitted": submitted}


def test_an_empty_cache_runs_in_grid_order_and_records_each_point(reference):
    assert reference["submitted"] == [p + ["seed=1"] for p in POINTS]
    records = _records(reference["cache"])
    assert sorted(records) == sorted(tuple(p) for p in POINTS)  # one per point, the seed left out
    for path, rec in records.values():
        assert rec["format"] == COST_FORMAT and 0 < rec["wall_time_s"] < 60, rec
        assert not [n for n in os.listdir(path.parent) if ".tmp-" in n]  # written whole, then renamed


def _seed_costs(reference, cache, costs):
    """A fresh cache holding only the reference's cost records, their wall times set to `costs`
    ({point index: seconds}); the records of the points not in `costs` are left out."""
    os.makedirs(cache / "costs")
    for i, p in enumerate(POINTS):
        path, rec = _records(reference["cache"])[tuple(p)]
        if i in costs:
            (cache / "costs" / path.name).write_text(json.dumps(dict(rec, wall_time_s=costs[i])))


def test_points_with_a_cost_start_longest_first_then_the_rest_in_grid_order(reference, tiny, tmp_path, capsys):
    cache = tmp_path / "cache"
    _seed_costs(reference, cache, {0: 50.0, 1: 300.0, 3: 150.0})  # point 2 has no record
    df, submitted = _sweep(tiny, cache, repeats=2)
    # both repeats of a point share its estimate and keep their order; point 2 comes last
    order = [1, 3, 0, 2]
    assert submitted == [POINTS[i] + ["seed=%d" % s] for i in order for s in (1, 2)]
    assert "sweep:" not in capsys.readouterr().err  # a missing record is not worth a warning
    # the rows are in grid order and the same as those of the run in grid order
    assert df.attrs["simulated"] == 8
    _same_rows(df[df["seed"] == 1], reference["df"])
    # the records now hold what the points took (the last repeat's: a tiny run), not the seeded values
    assert {k: r["wall_time_s"] < 50.0 for k, (_, r) in _records(cache).items()} == {tuple(p): True for p in POINTS}


def test_broken_or_foreign_cost_records_are_ignored_with_a_warning(reference, tiny, tmp_path, capsys):
    cache = tmp_path / "cache"
    _seed_costs(reference, cache, {0: 1.0, 1: 2.0, 2: 3.0, 3: 4.0})  # reverse grid order, if believed
    recs = _records(cache)
    paths = [recs[tuple(p)][0] for p in POINTS]
    paths[0].write_text('{"format": 1, "wall_')  # cut short
    other = recs[tuple(POINTS[2])][1]
    paths[1].write_text(json.dumps(dict(other, wall_time_s=9.0)))  # another point's record
    paths[2].write_bytes(b"\xff\xfe not text")
    paths[3].write_text(json.dumps(dict(other, overrides=POINTS[3], wall_time_s="long")))  # not a time
    df, submitted = _sweep(tiny, cache)
    assert submitted == [p + ["seed=1"] for p in POINTS]
    err = capsys.readouterr().err
    for p in paths:
        assert "sweep: ignoring the cost record %s" % p in err, err
    assert "not one of format 1 for this point" in err and "wall_time_s 'long' is not a time" in err
    _same_rows(df, reference["df"])
    # each point that ran replaced its broken record with a good one
    assert sorted(_records(cache)) == sorted(tuple(p) for p in POINTS)


@pytest.mark.parametrize("record", [[1.0], {"format": 2}, {"scenario": "0" * 24}, {"wall_time_s": -1.0},
                                    {"wall_time_s": float("nan")}, {"wall_time_s": float("inf")},
                                    {"wall_time_s": True}, {"wall_time_s": None}])
def test_a_record_that_is_not_a_cost_of_ours_gives_no_estimate(reference, tmp_path, capsys, record):
    """The record's checks one by one, on _read_cost alone (the sweeps above show where it is used)."""
    path, good = _records(reference["cache"])[tuple(POINTS[0])]
    cost = {"file": str(tmp_path / "r.json"), "scenario": good["scenario"], "overrides": good["overrides"]}
    (tmp_path / "r.json").write_text(json.dumps(good))
    assert _read_cost(cost) == good["wall_time_s"] and capsys.readouterr().err == ""
    (tmp_path / "r.json").write_text(json.dumps(dict(good, **record) if isinstance(record, dict) else record))
    assert _read_cost(cost) is None
    assert "sweep: ignoring the cost record %s" % cost["file"] in capsys.readouterr().err


def test_a_cost_that_cannot_be_written_costs_only_the_estimate(tiny, tmp_path, capfd):
    cache = tmp_path / "cache"
    os.makedirs(cache)
    (cache / "costs").write_text("a file where the folder would go")
    df = iwarpsim.sweep(tiny, grid={"workloads.0.size": ["64"]}, jobs=1, cache_dir=cache, progress=False)
    assert df.attrs["simulated"] == 1 and df["completed"].all()
    err = capfd.readouterr().err
    assert "sweep: could not record the cost of workloads.0.size=64" in err, err  # from the worker
    again = iwarpsim.sweep(tiny, grid={"workloads.0.size": ["64"]}, jobs=1, cache_dir=cache, progress=False)
    assert again.attrs["cached"] == 1  # the point itself was kept
