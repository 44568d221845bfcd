"""python3 -m iwarpsim.plot slowdown RESULTS_DIR ...: FCT / ideal FCT by flow-size bucket, from the traffic
workloads of results folders' summary.json (doc/metrics.md, "slowdown"); runs nothing. The folders here are
hand-written summaries: no simulation."""
import json
import math

import pandas as pd
import pytest

from iwarpsim import plot, plot_slowdown


def _bucket(lo, flows, not_completed, p50, p95=None, p99=None, p999=None):
    # the FCTs: the slowdown times a made-up ideal of 10 us per decade of size (none delivered: null)
    fct = (lambda x: None if x is None else x * 1e4 * math.log10(lo * 10))
    return {"min_octets": lo, "max_octets": lo * 10, "flows": flows, "not_completed": not_completed,
            "p50": p50, "p95": p95, "p99": p99, "p999": p999, "fct_p50_ns": fct(p50), "fct_p99_ns": fct(p99)}


def _workload(name, kind, llp="tcp", slowdown=None):
    return {"name": name, "kind": kind, "op": "write", "llp": llp, "slowdown": slowdown}


def _folder(tmp_path, name, workloads, scenario="web-search-load", seed=1):
    d = tmp_path / name
    d.mkdir()
    with open(d / "summary.json", "w") as f:
        json.dump({"format": 1, "scenario": scenario, "seed": seed, "run": 1, "workloads": workloads}, f)
    return d


# listed out of order, as nothing promises an order: the CSV and the axis sort them by size
TCP = [_bucket(10000, 40, 1, 2.5, 6.0, 9.0, 9.5), _bucket(100, 200, 0, 1.2, 1.8, 2.4, 2.4),
       _bucket(1000000, 3, 3, None)]
SCTP = [_bucket(100, 180, 0, 1.4, 2.0, 3.1, 3.3), _bucket(10000, 35, 0, 4.0, 30.0, 120.0, 120.0)]


@pytest.fixture
def folders(tmp_path):
    a = _folder(tmp_path, "web-tcp", [_workload("ping", "ping-pong"), _workload("web", "traffic", "tcp", TCP)])
    b = _folder(tmp_path, "web-sctp", [_workload("web", "traffic", "sctp", SCTP)], seed=2)
    return a, b


@pytest.fixture
def figures(monkeypatch):
    """The figures drawn, instead of files."""
    drawn = []
    monkeypatch.setattr(plot, "_save", lambda fig, out, name: drawn.append((fig, name)))
    return drawn


def test_slowdown_command_writes_png_pdf_and_csv(folders, tmp_path, capsys):
    out = tmp_path / "plots"
    assert plot.main(["slowdown", *map(str, folders), "--out", str(out)]) == 0
    for ext in ("png", "pdf"):
        p = out / ("slowdown.%s" % ext)
        assert p.exists() and p.stat().st_size > 1000, p
    with open(out / "slowdown.png", "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    printed = capsys.readouterr().out.split()
    assert printed == [str(out / name) for name in ("slowdown.png", "slowdown.pdf", "slowdown-fct.png",
                                                    "slowdown-fct.pdf", "slowdown.csv")]

    df = pd.read_csv(out / "slowdown.csv")
    assert list(df.columns) == plot_slowdown.SLOWDOWN_COLUMNS
    # one row per variant and bucket: the traffic workload only, buckets by size, the folders in their order
    assert list(zip(df["variant"], df["min_octets"], df["max_octets"])) == [
        ("web-tcp: web (RDMA write over tcp)", 100, 1000), ("web-tcp: web (RDMA write over tcp)", 10000, 100000),
        ("web-tcp: web (RDMA write over tcp)", 1000000, 10000000),
        ("web-sctp: web (RDMA write over sctp)", 100, 1000), ("web-sctp: web (RDMA write over sctp)", 10000, 100000)]
    assert list(df["results"]) == [str(folders[0])] * 3 + [str(folders[1])] * 2
    assert set(df["scenario"]) == {"web-search-load"} and list(df["seed"]) == [1, 1, 1, 2, 2]
    assert set(df["workload"]) == {"web"} and list(df["llp"]) == ["tcp"] * 3 + ["sctp"] * 2
    assert set(df["op"]) == {"write"} and set(df["run"]) == {1}
    assert list(df["flows"]) == [200, 40, 3, 180, 35] and list(df["not_completed"]) == [0, 1, 3, 0, 0]
    assert list(df["p50"].iloc[:2]) == [1.2, 2.5] and list(df["p99"].iloc[3:]) == [3.1, 120.0]
    assert list(df["p999"].iloc[:2]) == [2.4, 9.5] and list(df["p95"].iloc[3:]) == [2.0, 30.0]
    # nothing delivered in a bucket: its percentiles are empty (null in summary.json), its flows still counted
    assert df.iloc[2][["p50", "p95", "p99", "p999", "fct_p50_ns", "fct_p99_ns"]].isna().all()
    assert list(df["fct_p50_ns"].iloc[:2]) == [1.2 * 3e4, 2.5 * 5e4]


def _decades(ax):
    lo, hi = ax.get_ylim()
    return [(t.get_loc(), t.label1.get_text()) for t in ax.yaxis.get_major_ticks() if lo <= t.get_loc() <= hi]


def test_slowdown_figure_axes_lines_and_notes(folders, figures, tmp_path):
    plot.main(["slowdown", *map(str, folders), "--out", str(tmp_path / "plots")])
    (fig, name), (fct_fig, fct_name) = figures
    assert (name, fct_name) == ("slowdown", "slowdown-fct")
    (ax,) = fig.axes
    assert ax.get_title() == ("FCT slowdown (FCT / ideal FCT, at the receiver) by flow size\n"
                              "p50 solid, p99 dashed: nearest-rank over the flows delivered in each bucket; "
                              "a bucket with none delivered has no point")
    assert "octets" in ax.get_xlabel() and "FCT / ideal FCT" in ax.get_ylabel()
    # categories by size, labelled by their decade's bounds
    assert [t.get_text() for t in ax.get_xticklabels()] == ["100–1K", "10K–100K", "1M–10M"]
    # log axis, every decade in view labelled (1, 10, 100 for a p99 of 120), unlabelled minor ticks between
    assert ax.get_yscale() == "log"
    fig.draw_without_rendering()  # the tick labels are set at drawing
    decades = _decades(ax)
    assert [label for _, label in decades] == ["1", "10", "100"]
    assert all(math.isclose(loc, 10 ** k) for k, (loc, _) in enumerate(decades))
    assert len(ax.yaxis.get_minorticklocs()) > 10
    assert all(t.get_text() == "" for t in ax.yaxis.get_minorticklabels())
    assert ax.get_ylim()[1] > 120  # the largest p99 in view
    # p50 solid with markers, p99 dashed, per variant; the bucket with nothing delivered has no point
    lines = {line.get_label(): line for line in ax.get_lines() if not line.get_label().startswith("_")}
    assert sorted(lines) == sorted(["web-tcp: web (RDMA write over tcp) p50", "web-tcp: web (RDMA write over tcp) p99",
                                    "web-sctp: web (RDMA write over sctp) p50", "web-sctp: web (RDMA write over sctp) p99"])
    for label, line in lines.items():
        assert line.get_marker() not in (None, "None", "")
        assert line.get_linestyle() == ("-" if label.endswith("p50") else "--")
    tcp = lines["web-tcp: web (RDMA write over tcp) p50"].get_ydata()
    assert list(tcp[:2]) == [1.2, 2.5] and math.isnan(tcp[2])
    sctp = lines["web-sctp: web (RDMA write over sctp) p99"].get_ydata()
    assert list(sctp[[0, 1]]) == [3.1, 120.0] and math.isnan(sctp[2])  # no flow of that size
    assert lines["web-tcp: web (RDMA write over tcp) p50"].get_color() == lines["web-tcp: web (RDMA write over tcp) p99"].get_color()
    assert lines["web-tcp: web (RDMA write over tcp) p50"].get_color() != lines["web-sctp: web (RDMA write over sctp) p50"].get_color()
    # the flows never delivered are shown, for the bucket with none delivered as for the others
    notes = sorted(t.get_text() for t in ax.texts)
    assert notes == ["1 of 40\nnot completed", "3 of 3\nnot completed"]
    # the legend sits below the axes, where it covers no line
    legend = ax.get_legend()
    assert sorted(t.get_text() for t in legend.get_texts()) == sorted(lines)
    assert legend.get_window_extent().y1 < ax.get_window_extent().y0


def test_slowdown_workload_option_picks_one(tmp_path, figures):
    both = _folder(tmp_path, "two", [_workload("web", "traffic", "tcp", TCP), _workload("hdp", "traffic", "sctp", SCTP),
                                     _workload("ping", "ping-pong")])
    plot.main(["slowdown", str(both), "--out", str(tmp_path / "all")])
    assert list(dict.fromkeys(pd.read_csv(tmp_path / "all" / "slowdown.csv")["variant"])) == [
        "two: web (RDMA write over tcp)", "two: hdp (RDMA write over sctp)"]
    plot.main(["slowdown", str(both), "--workload", "hdp", "--out", str(tmp_path / "one")])
    df = pd.read_csv(tmp_path / "one" / "slowdown.csv")
    assert set(df["variant"]) == {"two: hdp (RDMA write over sctp)"} and list(df["min_octets"]) == [100, 10000]
    with pytest.raises(SystemExit, match="has no workload named 'nope'"):
        plot.main(["slowdown", str(both), "--workload", "nope"])
    with pytest.raises(SystemExit, match="workload 'ping' of .* is of kind ping-pong, not a load"):
        plot.main(["slowdown", str(both), "--workload", "ping"])


def test_slowdown_refuses_folders_it_cannot_draw(folders, tmp_path, figures):
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(SystemExit, match="empty has no summary.json"):
        plot.main(["slowdown", str(folders[0]), str(empty), "--out", str(tmp_path / "p")])
    other = _folder(tmp_path, "pings", [_workload("ping", "ping-pong"), _workload("bulk", "stream")])
    with pytest.raises(SystemExit, match=r"pings has no load .*ping \(ping-pong\), bulk \(stream\)"):
        plot.main(["slowdown", str(other), "--out", str(tmp_path / "p")])
    assert not figures and not (tmp_path / "p").exists()  # nothing drawn or written
    with pytest.raises(SystemExit) as usage:  # argparse: a folder is required
        plot.main(["slowdown"])
    assert usage.value.code == 2


@pytest.mark.parametrize("lo,label", [(1, "1–10"), (10, "10–100"), (1000, "1K–10K"), (10**6, "1M–10M"),
                                      (10**8, "100M–1G")])
def test_bucket_labels(lo, label):
    assert plot_slowdown.bucket_label(lo, lo * 10) == label


def test_the_legend_states_the_operating_point(tmp_path):
    # summary.json's `traffic`: the flow sizes and the load asked, and the load the hosts offered
    w = _workload("web", "traffic", "tcp", TCP)
    w["traffic"] = {"load": 0.3, "flow_sizes": "web-search", "pattern": "all-to-all", "hosts": 16,
                    "offered_load": 0.2871}
    df = plot_slowdown.slowdown_data([str(_folder(tmp_path, "ws30", [w]))])
    assert set(df["variant"]) == {"ws30: web (RDMA write over tcp), web-search at load 0.3 (offered 0.29)"}


def test_the_sockets_baseline_is_drawn_beside_rdma(tmp_path):
    # kind sockets-traffic is the same load over sockets: one more variant, named by its llp ("tcp" for plain
    # TCP, as summary.json says) and its kind's op label
    rdma = _workload("web", "traffic", "tcp", TCP)
    plain = _workload("web", "sockets-traffic", "tcp", SCTP)
    plain["op"] = "sockets"
    df = plot_slowdown.slowdown_data([str(_folder(tmp_path, "rdma", [rdma])), str(_folder(tmp_path, "plain", [plain]))])
    assert sorted(set(df["variant"])) == ["plain: web (sockets over tcp)", "rdma: web (RDMA write over tcp)"]
    assert set(df[df["variant"] == "plain: web (sockets over tcp)"]["op"]) == {"sockets"}


def test_the_legend_states_a_closed_loop(tmp_path):
    w = _workload("web", "traffic", "tcp", TCP)
    w["traffic"] = {"arrivals": "closed-loop", "load": None, "outstanding": 4, "flow_sizes": "hadoop",
                    "pattern": "all-to-all", "hosts": 16, "offered_load": 0.41}
    df = plot_slowdown.slowdown_data([str(_folder(tmp_path, "loop", [w]))])
    assert set(df["variant"]) == {"loop: web (RDMA write over tcp), hadoop, closed loop of 4 (offered 0.41)"}


def test_the_fct_figure_draws_the_fcts_in_ms(folders, figures, tmp_path):
    # the like-for-like figure: the FCTs themselves, each kind's ideal holding its own fixed costs
    plot.main(["slowdown", *map(str, folders), "--out", str(tmp_path / "plots")])
    fig, name = figures[1]
    assert name == "slowdown-fct"
    (ax,) = fig.axes
    assert ax.get_title().startswith("FCT by flow size: from the flow's arrival at its sender (queueing there "
                                     "included) to its last octet at the receiver")
    assert ax.get_ylabel() == "FCT in ms (log scale)" and ax.get_yscale() == "log"
    lines = {line.get_label(): line for line in ax.get_lines() if not line.get_label().startswith("_")}
    tcp = lines["web-tcp: web (RDMA write over tcp) p50"].get_ydata()
    assert list(tcp[:2]) == pytest.approx([1.2 * 3e4 * 1e-6, 2.5 * 5e4 * 1e-6]) and math.isnan(tcp[2])
    lo, hi = ax.get_ylim()
    assert lo < 1.2 * 3e4 * 1e-6 and hi > 120 * 5e4 * 1e-6  # every point in view
