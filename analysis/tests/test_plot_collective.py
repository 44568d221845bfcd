"""python3 -m iwarpsim.plot collective RESULTS_DIR ...: every rank's step times and end of one iteration of a
collective workload, from results folders' summary.json and collective-steps.csv (doc/collectives.md); runs
nothing. The folders here are hand-written: no simulation."""
import json

import matplotlib.colors
import numpy as np
import pandas as pd
import pytest

from iwarpsim import plot, plot_collective

IDEAL = 1000
# Three ranks, two steps, gap 100 ns; absolute times. A rank with no Send in a step has an empty posted_ns:
# rank 1 in step 1, rank 2 in step 0. Iteration 0 begins at 1000 at every rank; iteration 1 at the first end
# (rank 1's, 2100) + gap, and each rank begins it at its own end + gap: rank 0 at 2500, rank 1 at 2200, rank 2
# at 2800. Iteration 2 began (rank 0's end of 1 at 3350, + gap) and did not complete.
STEPS = """workload,iteration,rank,host,step,posted_ns,done_ns
ar,0,0,h0,0,1000,1500
ar,0,0,h0,1,1500,2300
ar,0,1,h1,0,1000,1700
ar,0,1,h1,1,,2000
ar,0,2,h2,0,,1600
ar,0,2,h2,1,1600,2600
ar,1,0,h0,0,2500,2900
ar,1,0,h0,1,2900,3300
ar,1,1,h1,0,2200,3000
ar,1,1,h1,1,,3400
ar,1,2,h2,0,,3100
ar,1,2,h2,1,3100,3500
ar,2,0,h0,0,3450,
"""
PER_ITERATION = [
    {"iteration": 0, "begun_ns": 1000, "completion_ns": 1700, "last_rank": 2, "rank_end_ns": [1400, 1100, 1700]},
    {"iteration": 1, "begun_ns": 2200, "completion_ns": 1400, "last_rank": 2, "rank_end_ns": [1150, 1250, 1400]},
    {"iteration": 2, "begun_ns": 3450, "completion_ns": None, "last_rank": None, "rank_end_ns": [None, None, None]},
]
# step_ns: done minus the step's start at the rank (step 0: the rank's begin; step s: its done of step s - 1)
EXPECTED = {0: [500, 800, 700, 300, 600, 1000], 1: [400, 400, 800, 400, 300, 400]}


def _collective(name="ar", ready=3, per_iteration=PER_ITERATION):
    return {"name": name, "kind": "collective", "llp": "tcp", "op": "send",
            "collective": {"algorithm": "ring-allreduce", "ranks": ["h0", "h1", "h2"], "size_octets": 3072,
                           "iterations": 3, "gap_ns": 100, "bus_factor": 4 / 3, "ranks_ready": ready,
                           "per_iteration": per_iteration},
            "collective_completion_ns": {"count": 2, "p50": 1400, "p99": 1700, "mean": 1550, "max": 1700},
            "collective_ideal_ns": IDEAL, "collective_busbw_bps": 2e10}


def _folder(tmp_path, name, workloads, steps=STEPS, scenario="ring3"):
    d = tmp_path / name
    d.mkdir()
    with open(d / "summary.json", "w") as f:
        json.dump({"format": 4, "scenario": scenario, "seed": 1, "run": 1, "overrides": [], "workloads": workloads}, f)
    if steps is not None:
        (d / "collective-steps.csv").write_text(steps)
    return d


def _panels(fig):
    """The heat map, its colour bar and the ends' panel of a figure or of one of its rows."""
    (heat,) = [ax for ax in fig.axes if ax.get_images()]
    (bar,) = [ax for ax in fig.axes if ax.get_ylabel().startswith("step time at the rank (µs")]
    (ends,) = [ax for ax in fig.axes if ax.get_title().startswith("each rank's end of the iteration")]
    return heat, bar, ends


@pytest.fixture
def ring(tmp_path):
    return _folder(tmp_path, "ring", [{"name": "ping", "kind": "ping-pong"}, _collective()])


@pytest.fixture
def figures(monkeypatch):
    """The figures drawn, instead of files."""
    drawn = []
    monkeypatch.setattr(plot, "_save", lambda fig, out, name: drawn.append((fig, name)))
    return drawn


def test_collective_command_writes_png_pdf_and_csv(ring, tmp_path, capsys):
    out = tmp_path / "plots"
    assert plot.main(["collective", str(ring), "--out", str(out)]) == 0
    for ext in ("png", "pdf"):
        p = out / ("collective.%s" % ext)
        assert p.exists() and p.stat().st_size > 1000, p
    with open(out / "collective.png", "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    printed = capsys.readouterr().out.split()
    assert printed == [str(out / "collective.png"), str(out / "collective.pdf"), str(out / "collective.csv")]
    df = pd.read_csv(out / "collective.csv")
    assert list(df.columns) == plot_collective.COLLECTIVE_COLUMNS
    # the default iteration: the last completed (1), not the last begun (2)
    assert set(df["iteration"]) == {1} and set(df["folder"]) == {str(ring)} and set(df["workload"]) == {"ar"}
    assert list(zip(df["rank"], df["host"], df["step"])) == [(0, "h0", 0), (0, "h0", 1), (1, "h1", 0), (1, "h1", 1),
                                                             (2, "h2", 0), (2, "h2", 1)]
    assert list(df["step_ns"]) == EXPECTED[1]
    assert list(df["rank_end_ns"]) == [1150, 1150, 1250, 1250, 1400, 1400] and set(df["ideal_ns"]) == {IDEAL}


def test_step_ns_is_done_minus_the_steps_start_at_the_rank(ring, tmp_path):
    out = tmp_path / "plots"
    plot.main(["collective", str(ring), "--iteration", "0", "--out", str(out)])
    df = pd.read_csv(out / "collective.csv")
    assert list(df["step_ns"]) == EXPECTED[0]
    steps = pd.read_csv(ring / "collective-steps.csv")
    it0 = steps[steps["iteration"] == 0].reset_index(drop=True)
    # a rank that sends in every step: done - posted
    sends = it0["rank"] == 0
    assert list(df["step_ns"][sends]) == list((it0["done_ns"] - it0["posted_ns"])[sends])
    # a rank that only receives: step 0 from the iteration's begin, step s from its done of step s - 1
    assert df["step_ns"][4] == 1600 - 1000 and df["step_ns"][3] == 2000 - 1700
    # iteration 1: step 0 from the rank's own begin (its end of iteration 0 + gap), not the first rank's
    assert EXPECTED[1][4] == 3100 - (1000 + 1700 + 100)


def test_step_times_skip_a_step_with_nothing_received():
    # rank 0 receives nothing in step 1: no time there, and step 2 starts at its done of step 0
    rows = pd.DataFrame({"rank": [0, 0, 0, 1], "step": [2, 0, 1, 0],
                         "done_ns": pd.array([900, 400, None, 700], dtype="Int64")})
    times = plot_collective.step_times(rows, [0, 50], begun_ns=100)
    assert times[1] == 300 and pd.isna(times[2]) and times[0] == 500 and times[3] == 550


def test_an_iteration_not_completed_keeps_every_rank(ring, tmp_path, figures):
    plot.main(["collective", str(ring), "--iteration", "2", "--out", str(tmp_path / "p")])
    df = pd.read_csv(tmp_path / "p" / "collective.csv")
    # rank 0's step with no done yet, ranks 1 and 2 (no row yet) kept with an empty step: nothing dropped
    assert list(df["rank"]) == [0, 1, 2] and df["step"].isna().tolist() == [False, True, True]
    assert df["step_ns"].isna().all() and df["rank_end_ns"].isna().all()
    ((fig, _),) = figures
    heat, _, ends = _panels(fig)
    assert "iteration 2 (not completed: 0 of 3 ranks ended it)" in heat.get_title()
    assert [t.get_text() for t in ends.texts] == [" did not end"] * 3


def test_the_figure(ring, tmp_path, figures):
    other = _folder(tmp_path, "other", [_collective()], scenario="ring3-slow")
    plot.main(["collective", str(ring), str(other), "--out", str(tmp_path / "p")])
    ((fig, name),) = figures
    assert name == "collective"
    rows = fig.subfigs
    assert len(rows) == 2  # one row of panels per folder, titled with its operating point
    assert rows[0]._suptitle.get_text().startswith("ring: scenario ring3, seed 1")
    assert rows[1]._suptitle.get_text().startswith("other: scenario ring3-slow, seed 1")
    assert "iteration 1 took 1.4 µs = 1.40 × ideal" in rows[0]._suptitle.get_text()
    heat, bar, ends = _panels(rows[0])
    assert heat.get_title().startswith("ring-allreduce, 3 ranks, 3 KiB, iteration 1 (the last completed of 2)")
    assert "taken at the receiving rank" in heat.get_title()
    assert heat.get_ylabel() == "rank (host)" and heat.get_xlabel() == "step"
    assert [t.get_text() for t in heat.get_yticklabels()] == ["0 (h0)", "1 (h1)", "2 (h2)"]
    assert bar.get_ylabel() == "step time at the rank (µs; this row's scale)"  # a colour bar per row
    (image,) = heat.get_images()  # rank by step, in µs
    assert np.array_equal(np.asarray(image.get_array()), np.array(EXPECTED[1]).reshape(3, 2) / 1e3)
    # right: each rank's end, the last rank in red and named, the ideal as a labelled vertical line
    assert "(µs)" in ends.get_xlabel()
    last = [p for p in ends.patches if p.get_facecolor() == matplotlib.colors.to_rgba(plot_collective.LAST_COLOR)]
    assert [(p.get_y() + p.get_height() / 2, p.get_width()) for p in last] == [(2, 1.4)]
    assert ends.get_yticklabels()[2].get_color() == plot_collective.LAST_COLOR
    labels = [t.get_text() for t in ends.get_legend().get_texts()]
    assert "ideal (each message alone on the empty network): 1 µs" in labels
    assert "last to end: rank 2 (h2), 1.4 µs = 1.40 × ideal" in labels
    (ideal,) = [line for line in ends.get_lines() if line.get_linestyle() == "--"]
    assert list(ideal.get_xdata()) == [1.0, 1.0]
    # the ranks began iteration 1 apart (up to 600 ns of 1.4 µs): the time before each began is drawn pale
    assert any(label.startswith("before the rank began it") for label in labels)


def test_collective_refuses_folders_it_cannot_draw(ring, tmp_path, figures):
    none = _folder(tmp_path, "traffic", [{"name": "web", "kind": "traffic"}], steps=None)
    with pytest.raises(SystemExit, match=r"traffic has no collective workload \(it has: web \(traffic\)\)"):
        plot.main(["collective", str(ring), str(none), "--out", str(tmp_path / "p")])
    never = _folder(tmp_path, "never", [_collective(ready=2, per_iteration=[])], steps=STEPS.splitlines()[0] + "\n")
    with pytest.raises(SystemExit, match="the collective 'ar' of .*never never began: only 2 of 3 ranks connected"):
        plot.main(["collective", str(never), "--out", str(tmp_path / "p")])
    two = _folder(tmp_path, "two", [_collective("a"), _collective("b")], steps=STEPS.replace("ar,", "a,"))
    with pytest.raises(SystemExit, match=r"two has 2 collective workloads \('a', 'b'\): --workload NAME picks one"):
        plot.main(["collective", str(two), "--out", str(tmp_path / "p")])
    with pytest.raises(SystemExit, match="has no workload named 'c'"):
        plot.main(["collective", str(two), "--workload", "c", "--out", str(tmp_path / "p")])
    with pytest.raises(SystemExit, match="workload 'ping' of .* is of kind ping-pong, not collective"):
        plot.main(["collective", str(ring), "--workload", "ping", "--out", str(tmp_path / "p")])
    with pytest.raises(SystemExit, match=r"iteration 7 of 'ar' in .* never began \(those that did: 0, 1, 2\)"):
        plot.main(["collective", str(ring), "--iteration", "7", "--out", str(tmp_path / "p")])
    bare = _folder(tmp_path, "bare", [_collective()], steps=None)
    with pytest.raises(SystemExit, match="bare has no collective-steps.csv"):
        plot.main(["collective", str(bare), "--out", str(tmp_path / "p")])
    assert not figures and not (tmp_path / "p").exists()  # nothing drawn or written
    # --workload picks one of several
    plot.main(["collective", str(two), "--workload", "a", "--out", str(tmp_path / "a")])
    assert set(pd.read_csv(tmp_path / "a" / "collective.csv")["workload"]) == {"a"}
