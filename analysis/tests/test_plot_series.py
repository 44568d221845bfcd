"""python3 -m iwarpsim.plot series RESULTS_DIR: one panel per quantity of series.csv, one line per flow or
link direction, units on the axes, time in ms (doc/metrics.md, "Time series")."""
import json
import os
import subprocess
import sys

import pandas as pd
import pytest

import iwarpsim
from iwarpsim import plot

SERIES = {"interval": "250us", "what": ["goodput", "cwnd", "rtt", "queue"], "links": [["h0", "h1"]]}


def _run_series(tiny, tmp_path, **series):
    """A Write stream between two hosts with tracing.series, into tmp_path/results."""
    tiny["workloads"] = [{"name": "bulk", "kind": "stream", "from": "h0", "to": "h1", "op": "write",
                          "size": "64KiB", "count": 20}]
    tiny["tracing"] = {"series": dict(SERIES, **series)}
    return iwarpsim.run(tiny, out_dir=tmp_path / "results")


def _plot(*args):
    return subprocess.run([sys.executable, "-m", "iwarpsim.plot", "series", *map(str, args)],
                          capture_output=True, text=True, timeout=120)


def test_series_command_draws_a_results_folder(tiny, tmp_path):
    r = _run_series(tiny, tmp_path)
    assert r.summary["files"]["series"] == "series.csv"
    rows = pd.read_csv(os.path.join(r.out_dir, "series.csv"))
    assert list(rows.columns) == ["time_ns", "subject", "quantity", "value", "unit"]
    assert set(rows["quantity"]) == {"goodput", "cwnd", "rtt", "queue_packets", "queue_octets"}
    assert set(rows["subject"]) == {"bulk/h0", "h0->h1", "h1->h0"}
    done = _plot(r.out_dir, "--out", tmp_path / "plots")
    assert done.returncode == 0, done.stderr
    for ext in ("png", "pdf"):
        p = tmp_path / "plots" / ("series-tiny.%s" % ext)
        assert p.exists() and p.stat().st_size > 1000, p
    with open(tmp_path / "plots" / "series-tiny.png", "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"


def test_series_command_refuses_a_folder_without_series(tiny, tmp_path):
    r = iwarpsim.run(tiny, out_dir=tmp_path / "plain")
    done = _plot(r.out_dir)
    assert done.returncode != 0
    assert "has no series.csv (run a scenario with tracing.series)" in done.stderr


def _folder(tmp_path, rows, link_events=()):
    d = tmp_path / "r"
    d.mkdir()
    pd.DataFrame(rows, columns=["time_ns", "subject", "quantity", "value", "unit"]).to_csv(d / "series.csv",
                                                                                          index=False)
    with open(d / "summary.json", "w") as f:
        json.dump({"scenario": "made", "link_events": list(link_events)}, f)
    return d


@pytest.fixture
def figures(monkeypatch):
    drawn = []
    monkeypatch.setattr(plot, "_save", lambda fig, out, name: drawn.append((fig, name)))
    return drawn


def _rows():
    rows = []
    for k in range(1, 5):
        t = k * 500000
        for flow, cwnd, rtt in (("a/h0", 14480 * k, 1000), ("b/h1", 4380 * k, 150000)):
            rows += [[t, flow, "goodput", 2e9 * k / 4, "bps"], [t, flow, "cwnd", cwnd, "octets"],
                     [t, flow, "rtt", rtt, "ns"]]
        rows += [[t, "s0->s1", "queue_packets", 10 * k, "packets"], [t, "s0->s1", "queue_octets", 15000 * k, "octets"],
                 [t, "s1->s0", "queue_packets", 0, "packets"], [t, "s1->s0", "queue_octets", 0, "octets"]]
    return rows


def test_series_panels_units_and_lines(figures, tmp_path):
    assert plot.main(["series", str(_folder(tmp_path, _rows()))]) == 0
    ((fig, name),) = figures
    assert name == "series-made"
    labels = [ax.get_ylabel() for ax in fig.axes]
    assert labels == ["goodput at the sink\n(Gb/s)", "sender's congestion\nwindow\n(KiB)",
                      "sender's smoothed RTT\n(µs)", "queue length\n(packets)", "queue length\n(KiB)"]
    assert fig.axes[-1].get_xlabel() == "simulated time (ms)"
    goodput, cwnd, rtt, packets, octets = fig.axes
    assert [t.get_text() for t in goodput.get_legend().get_texts()] == ["a/h0", "b/h1"]
    # a flow keeps its colour in every panel; goodput is a step over each interval, in Gb/s; time in ms
    for ax in (cwnd, rtt):
        assert [line.get_color() for line in ax.get_lines()] == [line.get_color() for line in goodput.get_lines()]
    assert goodput.get_lines()[0].get_drawstyle() == "steps-pre"
    assert list(goodput.get_lines()[0].get_xdata()) == [0.5, 1.0, 1.5, 2.0]
    assert list(goodput.get_lines()[0].get_ydata()) == [0.5, 1.0, 1.5, 2.0]
    # TCP's timestamp-clocked RTT of 1 µs is explained; an empty queue is left out, and said to be
    assert "TCP timestamps tick in ms" in rtt.get_title(loc="left")
    assert [line.get_label() for line in packets.get_lines()] == ["s0->s1"]
    assert "1 link direction with an empty queue throughout not drawn" in packets.get_title(loc="left")
    assert max(octets.get_lines()[0].get_ydata()) == pytest.approx(60000 / 1024)
    assert "every 500 µs" in fig._suptitle.get_text()


def test_series_what_and_subject_choose(figures, tmp_path):
    folder = str(_folder(tmp_path, _rows()))
    plot.main(["series", folder, "--what", "cwnd", "queue", "--subject", "b/*", "--subject", "s0->*"])
    ((fig, _),) = figures
    assert [ax.get_ylabel().split("\n")[0] for ax in fig.axes] == ["sender's congestion", "queue length",
                                                                    "queue length"]
    assert [line.get_label() for ax in fig.axes for line in ax.get_lines()] == ["b/h1", "s0->s1", "s0->s1"]
    with pytest.raises(SystemExit, match="no rows of rtt .* for nobody"):
        plot.main(["series", folder, "--what", "rtt", "--subject", "nobody"])


def test_series_many_lines_have_no_legend(figures, tmp_path):
    rows = [[500000 * k, "w/h%d" % i, "cwnd", 1000 * (i + k), "octets"] for i in range(20) for k in range(1, 4)]
    plot.main(["series", str(_folder(tmp_path, rows))])
    ((fig, _),) = figures
    (ax,) = fig.axes
    assert ax.get_legend() is None and len(ax.get_lines()) == 20
    assert any("20 lines" in t.get_text() for t in ax.texts)


def test_series_marks_link_events(figures, tmp_path):
    # summary.json's link_events (doc/failures.md): a link-down, its reroute and the link-up on every panel, named
    # above the top one; the flows' lines are untouched
    events = [{"at_ns": 1000000, "action": "link-down", "between": ["s0", "s1"], "direction": "both",
               "dropped_packets": 3, "rerouted_ns": 1500000},
              {"at_ns": 1800000, "action": "link-up", "between": ["s0", "s1"], "direction": "both",
               "dropped_packets": 0, "rerouted_ns": None}]
    plot.main(["series", str(_folder(tmp_path, _rows(), events))])
    ((fig, _),) = figures
    for ax in fig.axes:
        xs = sorted(float(seg[0][0]) for c in ax.collections for seg in c.get_segments())
        assert xs == [1.0, 1.5, 1.8]
    assert [line.get_label() for line in fig.axes[0].get_lines()] == ["a/h0", "b/h1"]
    assert [t.get_text() for t in fig.axes[0].texts] == ["link-down s0-s1", "link-up s0-s1"]


def test_series_marks_node_events(figures, tmp_path):
    # a node-down names its node (summary.json: `between` null, `node` set)
    events = [{"at_ns": 1000000, "action": "node-down", "between": None, "node": "spine0", "direction": "both",
               "dropped_packets": 3, "rerouted_ns": None},
              {"at_ns": 1800000, "action": "node-up", "between": None, "node": "spine0", "direction": "both",
               "dropped_packets": 0, "rerouted_ns": None}]
    plot.main(["series", str(_folder(tmp_path, _rows(), events))])
    ((fig, _),) = figures
    assert [t.get_text() for t in fig.axes[0].texts] == ["node-down spine0", "node-up spine0"]
    xs = sorted(float(seg[0][0]) for c in fig.axes[0].collections for seg in c.get_segments())
    assert xs == [1.0, 1.8]


def test_series_marks_link_changes(figures, tmp_path):
    # a link-change (doc/failures.md) is marked dash-dot with what it set; an entry without `changes` (older
    # summaries) reads as any other event
    events = [{"at_ns": 1000000, "action": "link-change", "between": ["s0", "s1"], "direction": "both",
               "dropped_packets": 0, "rerouted_ns": None,
               "changes": {"rate_bps": 1000000000, "delay_ns": 100000, "loss": 0.001, "queue": "20p"}},
              {"at_ns": 1500000, "action": "link-change", "between": ["s0", "s1"], "direction": "forward",
               "dropped_packets": 0, "rerouted_ns": None, "changes": {"queue": "150000B"}}]
    plot.main(["series", str(_folder(tmp_path, _rows(), events))])
    ((fig, _),) = figures
    assert [t.get_text() for t in fig.axes[0].texts] == [
        "link-change s0-s1: 1 Gb/s, 100 µs, loss 0.001, queue 20p", "link-change s0-s1: queue 150000B"]
    styles = [(c.get_linestyle()[0], tuple(c.get_color()[0])) for c in fig.axes[0].collections]
    assert len(styles) == 2 and styles[0] == styles[1]
    assert styles[0][0][1] is not None and len(styles[0][0][1]) == 4  # dash-dot: dash, gap, dot, gap
    assert "dash-dot orange changed" in fig.texts[0].get_text()


def test_series_draws_sctp_paths(figures, tmp_path):
    # `paths` (doc/metrics.md): an SCTP sender's data path and the HEARTBEATs it has sent, each a panel of its
    # own with whole-number ticks; only the event kinds present are keyed in the title
    rows = [[k * 500000, "s/h0", "data_path", 1 if 2 <= k <= 3 else 0, "path"] for k in range(1, 6)]
    rows += [[k * 500000, "s/h0", "heartbeats", k // 2, "chunks"] for k in range(1, 6)]
    events = [{"at_ns": 900000, "action": "link-down", "between": ["s0", "s1"], "direction": "both",
               "dropped_packets": 3, "rerouted_ns": None}]
    plot.main(["series", str(_folder(tmp_path, rows, events))])
    ((fig, _),) = figures
    assert [ax.get_ylabel() for ax in fig.axes] == ["SCTP sender's\ndata path\n(0: primary)",
                                                    "SCTP HEARTBEATs\nsent so far\n(chunks)"]
    for ax in fig.axes:
        ticks = [t for t in ax.get_yticks() if ax.get_ylim()[0] <= t <= ax.get_ylim()[1]]
        assert ticks and all(float(t).is_integer() for t in ticks)
    assert list(fig.axes[0].get_lines()[0].get_ydata()) == [0, 1, 1, 0, 0]
    title = fig._suptitle.get_text()
    assert "dashed red down" in title
    assert "changed" not in title and "routes recomputed" not in title and "solid green up" not in title


def test_series_marks_sctp_data_path_changes(figures, tmp_path):
    # summary.json's sctp_associations (doc/metrics.md): each change of data path at the end that made it, on
    # every panel, named above the top one: away from the primary in blue, back to it in cyan
    d = _folder(tmp_path, _rows())
    changes = [{"at_ns": 1200000, "from": "10.0.0.9", "to": "10.0.0.25", "to_primary": False,
                "since_failure_ns": 200000},
               {"at_ns": 1900000, "from": "10.0.0.25", "to": "10.0.0.9", "to_primary": True,
                "since_failure_ns": 900000}]
    summary = {"scenario": "made", "link_events": [],
               "workloads": [{"name": "sctp", "sctp_associations": [
                   {"node": "h0", "connection": "h0:49152", "paths": [], "data_path_changes": changes},
                   {"node": "h2", "connection": "h0:49152", "paths": [], "data_path_changes": []}]},
                   {"name": "tcp", "sctp_associations": []}]}
    with open(d / "summary.json", "w") as f:
        json.dump(summary, f)
    plot.main(["series", str(d)])
    ((fig, _),) = figures
    assert [t.get_text() for t in fig.axes[0].texts] == ["sctp at h0 fails over", "sctp at h0 back to primary"]
    for ax in fig.axes:
        xs = sorted(float(seg[0][0]) for c in ax.collections for seg in c.get_segments())
        assert xs == [1.2, 1.9]
    assert "SCTP data path" in fig._suptitle.get_text()
