"""Figures from sweeps of the built-in scenarios (scenarios.py), and of one run's time series, as PNG and PDF.

    python3 -m iwarpsim.plot latency  --out plots   # half round trip vs size: Send, Write, sockets; Read's round trip
    python3 -m iwarpsim.plot savings  --out plots   # per host profile and link rate: cycles, bus octets, cores
    python3 -m iwarpsim.plot loss     --out plots   # goodput at the receiver vs loss rate and vs reordering
    python3 -m iwarpsim.plot fct      --out plots   # incast CDF of post -> delivery at the sink
    python3 -m iwarpsim.plot series RESULTS_DIR --out plots [--what cwnd queue] [--subject 'bulk/*']
    python3 -m iwarpsim.plot slowdown RESULTS_DIR [RESULTS_DIR ...] --out plots [--workload NAME]
    python3 -m iwarpsim.plot collective RESULTS_DIR [RESULTS_DIR ...] --out plots [--workload NAME] [--iteration N]

The first four run their (small) sweeps themselves, cached (--cache-dir), and write DIR/<name>.png, .pdf
and the data plotted as DIR/<name>.csv (units in the column names: _ns, _bps, _bytes, _per_byte,
_fraction); --csv FILE plots a CSV written before instead of running anything. --quick runs fewer
points (for tests). `series` runs nothing: it draws the series.csv of a results folder (a scenario
with tracing.series) as DIR/series-<scenario>.png and .pdf, one panel per quantity, one line per flow
or link direction. `slowdown` runs nothing either: it draws the FCT slowdown by flow size of the traffic
workloads in results folders' summary.json as DIR/slowdown.png, .pdf and .csv (plot_slowdown.py). `collective`
neither: it draws every rank's step times and end of one iteration of a collective workload, from summary.json and
collective-steps.csv, as DIR/collective.png, .pdf and .csv (plot_collective.py).
"""
from __future__ import annotations

import argparse
import fnmatch
import json
import math
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import matplotlib
import matplotlib.ticker
import pandas as pd
from matplotlib.figure import Figure

from . import plot_savings, scenarios
from .sweep import local_executor, sweep  # noqa: E402

if TYPE_CHECKING:
    from matplotlib.axes import Axes

COLORS = {"send": "tab:blue", "write": "tab:orange", "read": "tab:green", "sockets": "tab:red",
          "rdma": "tab:orange"}
LABELS = {"send": "RDMA Send", "write": "RDMA Write", "read": "RDMA Read", "sockets": "TCP sockets",
          "rdma": "RDMA Write (iWARP)"}


def size_label(n: int) -> str:
    for unit, f in (("MiB", 2**20), ("KiB", 2**10)):
        if n >= f and n % f == 0:
            return "%d %s" % (n // f, unit)
    return "%d B" % n


def _figure(width: float, height: float) -> Figure:
    """A figure of its own, not pyplot's: drawing and saving it needs no backend, so importing this module
    leaves the caller's (a notebook's inline one, say) as it was."""
    return Figure(figsize=(width, height))


def _save(fig: Figure, out: str, name: str) -> list[str]:
    os.makedirs(out, exist_ok=True)
    paths = [os.path.join(out, name + ext) for ext in (".png", ".pdf")]
    for p in paths:
        fig.savefig(p, dpi=150, bbox_inches="tight")
    for p in paths:
        print(p)
    return paths


def _sweep(base: dict[str, Any], grid: dict[str, list[Any]], args: argparse.Namespace, desc: str) -> pd.DataFrame:
    return sweep(base, grid=grid, repeats=args.repeats, jobs=args.jobs, cache_dir=args.cache_dir,
                 dask=args.dask, desc=desc, executor=args.executor)


def _sweeps(variants: Iterable[str], base_of: Callable[[str], dict[str, Any]], grid: dict[str, list[Any]],
            args: argparse.Namespace, label: str) -> pd.DataFrame:
    frames = []
    for v in variants:
        df = _sweep(base_of(v), grid, args, "%s %s" % (label, v))
        df.insert(0, "variant", v)
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


def _seeds_note(n: int) -> str:
    return "%d seed%s" % (n, "" if n == 1 else "s")


# ---------------------------------------------------------------------------------------------- latency
# The CSV: one row per variant, size and seed; the statistics in ns.  A ping-pong's latency is half a
# round trip (summary latency_by_size); a Read has no half: its figure is the round trip, post to
# the data's delivery at the initiator (the workload's FCT).
# A p99 this close to the p50 says nothing a single line does not (a lossless run repeats itself).
SPREAD = 0.01
LATENCY_COLUMNS = ["variant", "quantity", "size_bytes", "seed", "p50_ns", "p99_ns", "mean_ns", "messages"]


def latency_data(args: argparse.Namespace) -> pd.DataFrame:
    sizes = ["64", "4KiB", "64KiB"] if args.quick else ["64", "1KiB", "4KiB", "16KiB", "64KiB", "256KiB", "1MiB"]
    df = _sweeps(["send", "write", "read", "sockets"], lambda v: scenarios.latency(v, count=5 if args.quick else 20),
                 {"workloads.0.size": sizes}, args, "latency")
    rows = []
    for _, r in df.iterrows():
        if r["variant"] == "read":
            rows.append([r["variant"], "round trip", r["size"], r["seed"], r["fct_p50_ns"], r["fct_p99_ns"],
                         r["fct_mean_ns"], r["messages_delivered"]])
        else:
            rows.append([r["variant"], "half round trip", r["size"], r["seed"], r["latency_p50_ns"],
                         r["latency_p99_ns"], r["latency_mean_ns"], r["latency_count"]])
    return pd.DataFrame(rows, columns=LATENCY_COLUMNS)


def _size_axis(ax: Axes, sizes: list[int]) -> None:
    ax.set_xscale("log", base=2)
    ax.set_xticks(sizes)
    ax.set_xticklabels([size_label(t) for t in sizes])
    ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    ax.set_xlabel("message size")


def latency_plot(df: pd.DataFrame, out: str) -> list[str]:
    fig = _figure(12, 5)
    axes = fig.subplots(1, 2, sharey=True, gridspec_kw={"width_ratios": [3, 2]})
    sizes = sorted(int(x) for x in df["size_bytes"].unique())
    panels = [(axes[0], ["send", "write", "sockets"], "Ping-pong: half a round trip",
               "ping-pong: half round trip, per message (µs, log scale)"),
              (axes[1], ["read"], "RDMA Read: the whole round trip",
               "Read: post to data delivered at the initiator (µs, log scale)")]
    for ax, variants, title, ylabel in panels:
        for v in variants:
            d = df[df["variant"] == v].groupby("size_bytes")[["p50_ns", "p99_ns"]].mean().sort_index()
            if d.empty:
                continue
            c = COLORS[v]
            ax.plot(d.index, d["p50_ns"] / 1e3, "o-", color=c, lw=2, label="%s p50" % LABELS[v])
            if (d["p99_ns"] > d["p50_ns"] * (1 + SPREAD)).any():  # a p99 of its own: drawn, with the band
                ax.fill_between(d.index, d["p50_ns"] / 1e3, d["p99_ns"] / 1e3, color=c, alpha=0.12, linewidth=0)
                ax.plot(d.index, d["p99_ns"] / 1e3, "v--", color=c, lw=1.5, label="%s p99" % LABELS[v])
        _size_axis(ax, sizes)
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: "%g" % v))
        ax.set_ylabel(ylabel)
        ax.tick_params(axis="y", labelleft=True)
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8, loc="upper left")
    seeds = int(df.groupby(["variant", "size_bytes"]).size().max())
    samples = int(df["messages"].min())
    fig.suptitle("Latency vs message size, two hosts over a 10 Gb/s link with 2 µs propagation delay; p50 of at least "
                 "%d messages per size (%s);\na p99 (dashed, band to the p50) only where it exceeds the p50 by more "
                 "than %g %%: a run without loss repeats itself" % (samples, _seeds_note(seeds), SPREAD * 100))
    fig.tight_layout()
    return _save(fig, out, "latency")


# ---------------------------------------------------------------------------------------------- savings
# Host profiles x link rates, RDMA against sockets (plot_savings.py says what it runs and draws).
def savings_data(args: argparse.Namespace) -> pd.DataFrame:
    return plot_savings.savings_data(args, _sweeps)


def savings_plot(df: pd.DataFrame, out: str) -> list[str]:
    return plot_savings.savings_plot(df, out, _figure, _save)


# ---------------------------------------------------------------------------------------------- loss
# Goodput at the receiver over the window the stream posts in: summary.json's goodput_window_bps
# (the scenarios set `measure`; doc/metrics.md). The summary's goodput_bps spans first post to last
# delivery, which flatters a run that delivers few messages.
LOSS_COLUMNS = ["variant", "impairment", "level_fraction", "seed", "goodput_bps", "messages_delivered",
                "retransmissions_count", "retransmissions_timeout_count"]


def loss_data(args: argparse.Namespace) -> pd.DataFrame:
    losses = [0, 1e-4, 1e-2] if args.quick else [0, 1e-5, 1e-4, 1e-3, 1e-2]
    fractions = [0, 0.05] if args.quick else [0, 0.001, 0.01, 0.05, 0.2]
    a = _sweeps(["rdma", "sockets"], lambda v: scenarios.impaired_stream(v, "loss"), {"links.loss": losses},
                args, "loss")
    a["impairment"], a["level_fraction"] = "loss", a["links.loss"].astype(float)
    b = _sweeps(["rdma", "sockets"], lambda v: scenarios.impaired_stream(v, "reorder"),
                {"links.reorder.fraction": fractions}, args, "reorder")
    b["impairment"], b["level_fraction"] = "reorder", b["links.reorder.fraction"].astype(float)
    df = pd.concat([a, b], ignore_index=True)
    df["goodput_bps"] = df["goodput_window_bps"]
    df["retransmissions_count"], df["retransmissions_timeout_count"] = df["retransmissions"], df["retransmissions_timeout"]
    return df[LOSS_COLUMNS]


def loss_plot(df: pd.DataFrame, out: str) -> list[str]:
    fig = _figure(12, 5)
    axes = fig.subplots(1, 2, sharey=True)
    titles = {"loss": ("Goodput at the receiver vs random loss",
                       "packet loss probability, each link and direction (log scale)"),
              "reorder": ("Goodput at the receiver vs reordering",
                          "fraction of packets held back 20 µs (log scale)")}
    styles = {"rdma": ("o-", "RDMA Write stream (iWARP, 8 outstanding)"), "sockets": ("s-", "TCP sockets stream")}
    for ax, imp in zip(axes, ["loss", "reorder"]):
        d0 = df[df["impairment"] == imp]
        for v in ["rdma", "sockets"]:
            d = d0[d0["variant"] == v]
            g = d.groupby("level_fraction")["goodput_bps"]
            mean, lo, hi = g.mean() / 1e9, g.min() / 1e9, g.max() / 1e9
            pos = mean.index > 0
            xs, ys = mean.index[pos], mean[pos]
            err = [(ys - lo[pos]).to_numpy(), (hi[pos] - ys).to_numpy()]
            fmt, label = styles[v]
            ax.errorbar(xs, ys, yerr=err if g.size().max() > 1 else None, fmt=fmt, capsize=4, color=COLORS[v],
                        label=label)
            if 0 in mean.index:  # no impairment has no place on a log axis: a reference line
                ax.axhline(mean[0], color=COLORS[v], ls=":", lw=1.2,
                           label="%s, none (%.2f Gb/s)" % (label.split(" (")[0], mean[0]))
        ax.set_xscale("log")
        ax.set_title(titles[imp][0])
        ax.set_xlabel(titles[imp][1])
        ax.grid(True, which="both", alpha=0.3)
        ax.set_ylim(0, 10.5)
        ax.tick_params(axis="y", labelleft=True)
    axes[0].set_ylabel("goodput at the receiver (Gb/s): message octets\ndelivered at h1 in the 8 ms the stream posts")
    seeds = int(df.groupby(["variant", "impairment", "level_fraction"]).size().max())
    fig.suptitle("64 KiB messages h0 → h1 for 8 ms over a 10 Gb/s, 2 µs link; mean of %s%s"
                 % (_seeds_note(seeds), ", bars min–max" if seeds > 1 else ""))
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    handles, labels = axes[0].get_legend_handles_labels()  # below the panels: the curves run everywhere
    fig.legend(handles, labels, loc="lower center", ncol=2, fontsize=8, frameon=False)
    return _save(fig, out, "loss")


# ---------------------------------------------------------------------------------------------- fct
# Flow completion time: post to the delivery at the data sink (messages.csv fct_ns), not the
# completion at the sender (a Write completes once its data has left: before it has arrived).
def fct_data(args: argparse.Namespace) -> pd.DataFrame:
    fanins = [2, 4] if args.quick else [2, 4, 8]
    count = 5 if args.quick else 10
    frames = []
    for variant in ("rdma", "sockets"):
        for n in fanins:
            base = scenarios.incast(senders=n, count=count) if variant == "rdma" else \
                scenarios.incast_sockets(senders=n, count=count)
            df = _sweep(base, {}, args, "fct %s %d" % (variant, n))
            for out_dir, seed in dict(zip(df["out_dir"], df["seed"])).items():
                m = pd.read_csv(os.path.join(out_dir, "messages.csv"))
                m = m[m["status"] == "delivered"]
                frames.append(pd.DataFrame({"variant": variant, "senders": n, "seed": seed,
                                            "size_bytes": m["size_bytes"], "fct_ns": m["fct_ns"],
                                            "delivered_ns": m["delivered_ns"]}))
    return pd.concat(frames, ignore_index=True)


def _nearest_rank(xs: Iterable[float], p: float) -> float:
    ordered = sorted(xs)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def _log_microseconds(ax: Axes) -> None:
    """A log x axis of microseconds labelled at 1, 2 and 5 of each decade, in plain numbers."""
    ax.set_xscale("log")
    ax.xaxis.set_major_locator(matplotlib.ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: "%g" % v))
    ax.xaxis.set_minor_locator(matplotlib.ticker.LogLocator(base=10, subs=(3.0, 4.0, 6.0, 7.0, 8.0, 9.0)))
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())


def fct_plot(df: pd.DataFrame, out: str) -> list[str]:
    fig = _figure(8, 5.5)
    ax = fig.subplots()
    cmap = matplotlib.colormaps["viridis"]
    fanins = sorted(df["senders"].unique())
    variants = [v for v in ("rdma", "sockets") if v in set(df["variant"])]
    for i, n in enumerate(fanins):
        for v in variants:
            d = df[(df["senders"] == n) & (df["variant"] == v)]
            x = d["fct_ns"].sort_values().to_numpy() / 1e3
            if len(x) == 0:
                continue
            last = float(d.groupby("seed")["delivered_ns"].max().mean()) / 1e6
            ax.step([x[0]] + list(x), [0] + [(k + 1) / len(x) for k in range(len(x))], where="post",
                    color=cmap(i / max(1, len(fanins) - 1) * 0.85), ls="-" if v == "rdma" else "--",
                    label="%s, %d senders (p50 %.0f µs, p99 %.0f µs; last delivery %.2f ms)"
                          % ("RDMA Write" if v == "rdma" else "TCP sockets", n, _nearest_rank(x, 50),
                             _nearest_rank(x, 99), last))
    lo, hi = float(df["fct_ns"].min()) / 1e3, float(df["fct_ns"].max()) / 1e3
    if lo > 0 and hi / lo > 10:  # log only when the times span a decade
        _log_microseconds(ax)
    sizes = sorted(df["size_bytes"].unique())
    what = size_label(int(sizes[0])) if len(sizes) == 1 else "one"
    ax.set_xlabel("flow completion time: post of a %s message to its delivery at h8 (µs%s)"
                  % (what, ", log scale" if ax.get_xscale() == "log" else ""))
    ax.set_ylabel("fraction of messages ≤ x")
    ax.set_ylim(0, 1.02)
    runs = df.groupby(["variant", "senders"])["seed"].nunique()
    per = int(round(float((df.groupby(["variant", "senders"]).size() / runs
                           / runs.index.get_level_values("senders")).min())))
    ax.set_title("Incast: N senders → h8, %d messages each; dumbbell, 10 Gb/s bottleneck, 100-packet queue (%s)\n"
                 "each sender posts its next message once its transport has accepted the last (a Write completes\n"
                 "when TCP has taken it; send() returns), so the time waiting in the sender's buffer is in the FCT;\n"
                 "the sockets' TCP buffer takes more messages at once than the RNIC: the last delivery compares rates"
                 % (per, _seeds_note(int(runs.max()))), fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2, frameon=False)
    return _save(fig, out, "fct")


COMMANDS = {"latency": (latency_data, latency_plot), "savings": (savings_data, savings_plot),
            "loss": (loss_data, loss_plot), "fct": (fct_data, fct_plot)}


# ---------------------------------------------------------------------------------------------- series
# One run's series.csv (doc/metrics.md, "Time series"): time_ns, subject, quantity, value, unit. Goodput
# is each interval's average, drawn as a step over it; the others are samples at the interval's end.
# One panel per quantity, in this order, with this axis label; _series_scale picks the unit by the peak.
SERIES_PANELS = {"goodput": "goodput at the sink", "cwnd": "sender's congestion\nwindow",
                 "rtt": "sender's smoothed RTT", "data_path": "SCTP sender's\ndata path",
                 "heartbeats": "SCTP HEARTBEATs\nsent so far", "queue_packets": "queue length",
                 "queue_octets": "queue length"}
SERIES_WHAT = {"goodput": ["goodput"], "cwnd": ["cwnd"], "rtt": ["rtt"], "paths": ["data_path", "heartbeats"],
               "queue": ["queue_packets", "queue_octets"]}
SERIES_MAX_LEGEND = 12  # lines per panel that a legend can still tell apart


def _series_scale(quantity: str, peak: float) -> tuple[float, str]:
    if quantity == "goodput":
        return (1e9, "Gb/s") if peak >= 1e9 else (1e6, "Mb/s")
    if quantity in ("cwnd", "queue_octets"):
        return (1024.0, "KiB") if peak >= 10 * 1024 else (1.0, "octets")
    if quantity == "rtt":
        return 1e3, "µs"
    if quantity == "data_path":
        return 1.0, "0: primary"
    if quantity == "heartbeats":
        return 1.0, "chunks"
    return 1.0, "packets"


# summary.json's link_events actions: line style, colour, and the words the figure's title gives them.
EVENT_STYLES = {"link-down": ("--", "tab:red", "dashed red down"), "link-up": ("-", "tab:green", "solid green up"),
                "node-down": ("--", "tab:purple", "dashed purple node down"),
                "node-up": ("-", "tab:olive", "solid olive node up"),
                "link-change": ("-.", "tab:orange", "dash-dot orange changed")}


def _event_legend(events: Sequence[dict[str, Any]]) -> str:
    """The title's key to the event markers drawn: only the actions present, in EVENT_STYLES' order."""
    actions = {e["action"] for e in events}
    words = [w for a, (_, _, w) in EVENT_STYLES.items() if a in actions]
    if any(e.get("rerouted_ns") is not None for e in events):
        words.append("dotted grey routes recomputed")
    return "\nlink events: " + ", ".join(words) if words else ""


def _event_markers(axes: Sequence[Any], events: Sequence[dict[str, Any]]) -> None:
    """summary.json's link_events (doc/failures.md) on every panel: a dashed line at each link-down (purple: a
    node-down), a solid one at each link-up (olive: a node-up), a dash-dot orange one at a link-change, a dotted grey
    one where the routes followed; named above the top panel (a link-change with what it set)."""
    for ax in axes:
        for e in events:
            ls, colour, _ = EVENT_STYLES.get(e["action"], (":", "0.3", ""))
            ax.vlines(e["at_ns"] / 1e6, 0, 1, transform=ax.get_xaxis_transform(), linestyles=ls, colors=colour,
                      lw=1.0)
            if e.get("rerouted_ns") is not None:
                ax.vlines(e["rerouted_ns"] / 1e6, 0, 1, transform=ax.get_xaxis_transform(), linestyles=":",
                          colors="0.4", lw=0.8)
    for e in events:
        subject = e.get("node") or "-".join(e.get("between") or [])  # a node event names its node
        axes[0].text(e["at_ns"] / 1e6, 1.02, "%s %s%s" % (e["action"], subject, _changes_text(e.get("changes"))),
                     transform=axes[0].get_xaxis_transform(), fontsize=7, rotation=30, ha="left", va="bottom")


def _changes_text(changes: dict[str, Any] | None) -> str:
    """": 1 Gb/s, 100 µs, loss 0.001, queue 20p": a link-change's new values (summary.json's `changes`)."""
    if not changes:
        return ""
    parts = []
    if "rate_bps" in changes:
        parts.append("%g Gb/s" % (changes["rate_bps"] / 1e9))
    if "delay_ns" in changes:
        parts.append("%g µs" % (changes["delay_ns"] / 1e3))
    if "loss" in changes:
        parts.append("loss %g" % changes["loss"])
    if "queue" in changes:
        parts.append("queue %s" % changes["queue"])
    return ": " + ", ".join(parts)


def path_changes(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """Each multihomed SCTP association's data-path changes (summary.json's sctp_associations, doc/metrics.md)
    as markers: {at_ns, label, to_primary}, the end that changed named."""
    out = []
    for w in summary.get("workloads", []):
        for a in w.get("sctp_associations") or []:
            for c in a["data_path_changes"]:
                out.append({"at_ns": c["at_ns"], "to_primary": c["to_primary"],
                            "label": "%s at %s %s" % (w["name"], a["node"],
                                                      "back to primary" if c["to_primary"] else "fails over")})
    return out


def _path_change_markers(axes: Sequence[Any], changes: Sequence[dict[str, Any]]) -> None:
    """SCTP data-path changes on every panel: dash-dot blue at a failover, dash-dot cyan back to the primary."""
    for ax in axes:
        for c in changes:
            ax.vlines(c["at_ns"] / 1e6, 0, 1, transform=ax.get_xaxis_transform(), linestyles="-.",
                      colors="tab:cyan" if c["to_primary"] else "tab:blue", lw=1.0)
    for c in changes:
        axes[0].text(c["at_ns"] / 1e6, 1.02, c["label"], transform=axes[0].get_xaxis_transform(), fontsize=7,
                     rotation=30, ha="left", va="bottom", color="tab:blue")


def series_plot(df: pd.DataFrame, out: str, scenario: str, interval_ns: float,
                events: Sequence[dict[str, Any]] = (), changes: Sequence[dict[str, Any]] = ()) -> list[str]:
    """One panel per quantity of `df` (series.csv's rows), one line per subject; time in ms; `events`
    (summary.json's link_events) and `changes` (path_changes) marked on every panel."""
    quantities = [q for q in SERIES_PANELS if q in set(df["quantity"])]
    if not quantities:
        raise SystemExit("series: nothing to draw (no rows of %s)" % ", ".join(SERIES_PANELS))
    fig = _figure(10, 2.6 * len(quantities) + 0.6)
    axes = fig.subplots(len(quantities), 1, sharex=True, squeeze=False)
    axes = axes[:, 0]
    subjects = list(dict.fromkeys(df["subject"]))  # in file order: flows, then links

    def palette(names: Sequence[str]) -> dict[str, Any]:
        cmap = matplotlib.colormaps["tab10" if len(names) <= 10 else "tab20"]
        return {x: cmap(i % cmap.N) for i, x in enumerate(names)}

    # A flow keeps its colour in every panel; links share no panel with flows and take the palette
    # afresh in theirs, among the lines drawn.
    color = palette([x for x in subjects if "->" not in x])
    for ax, q in zip(axes, quantities):
        d = df[df["quantity"] == q]
        scale, unit = _series_scale(q, float(d["value"].max()))
        peaks = d.groupby("subject")["value"].max()
        # an empty queue throughout: a flat line at 0 says nothing
        quiet = [x for x in peaks.index if q.startswith("queue") and peaks[x] == 0]
        shown = [x for x in subjects if x in peaks.index and x not in quiet]
        many = len(shown) > SERIES_MAX_LEGEND
        if q.startswith("queue"):
            color.update(palette(shown))
        for subject in shown:
            g = d[d["subject"] == subject]
            ax.plot(g["time_ns"] / 1e6, g["value"] / scale, drawstyle="steps-pre" if q == "goodput" else "default",
                    color=color[subject], lw=0.8 if many else 1.5, label=subject)
        ax.set_ylabel("%s\n(%s)" % (SERIES_PANELS[q], unit))
        ax.set_ylim(bottom=0)
        if q in ("data_path", "heartbeats"):  # counts and indices: whole-number ticks
            ax.yaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        ax.grid(True, alpha=0.3)
        notes = []
        if quiet:
            notes.append("%d link direction%s with an empty queue throughout not drawn"
                         % (len(quiet), "" if len(quiet) == 1 else "s"))
        if q == "rtt" and (d["value"] == 1000).any():
            notes.append("1 µs: ns-3's TCP timestamps tick in ms, so an RTT below 1 ms reads 1 µs "
                         "(transport: {tcp: {timestamps: false}} measures it)")
        if notes:  # above the panel, where it hides no line
            ax.set_title("; ".join(notes), loc="left", fontsize=8, color="0.3")
        if shown and not many:
            ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        elif shown:
            ax.text(1.01, 1.0, "%d lines\n(--subject picks some)" % len(shown), transform=ax.transAxes,
                    va="top", fontsize=7)
    _event_markers(axes, events)
    _path_change_markers(axes, changes)
    axes[-1].set_xlabel("simulated time (ms)")
    axes[-1].set_xlim(0, float(df["time_ns"].max()) / 1e6)
    fig.suptitle("Time series of scenario %s, sampled every %g µs%s%s"
                 % (scenario, interval_ns / 1e3, " (goodput: averaged over each interval)"
                    if "goodput" in quantities else "",
                    _event_legend(events))
                 + ("; SCTP data path: dash-dot blue failover, cyan back" if changes else ""))
    fig.tight_layout()
    return _save(fig, out, "series-" + scenario)


def series_main(args: argparse.Namespace) -> int:
    path = os.path.join(args.results, "series.csv")
    if not os.path.exists(path):
        raise SystemExit("series: %s has no series.csv (run a scenario with tracing.series)" % args.results)
    with open(os.path.join(args.results, "summary.json")) as f:
        summary = json.load(f)
    scenario = summary["scenario"]
    df = pd.read_csv(path)
    keep = [q for w in (args.what or SERIES_WHAT) for q in SERIES_WHAT[w]]
    df = df[df["quantity"].isin(keep)]
    if args.subject:
        df = df[df["subject"].map(lambda s: any(fnmatch.fnmatchcase(s, p) for p in args.subject))]
    times = sorted(df["time_ns"].unique())
    if not times:
        raise SystemExit("series: no rows of %s in %s%s" % (", ".join(args.what or SERIES_WHAT), path,
                                                           " for " + ", ".join(args.subject) if args.subject else ""))
    series_plot(df, args.out, scenario, times[0], summary.get("link_events") or [], path_changes(summary))
    return 0


def _series_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    s = sub.add_parser("series", help="draw a results folder's series.csv (tracing.series)",
                       description="One panel per quantity, one line per flow (<workload>/<initiator>) or link "
                                   "direction (<from>-><to>); time in ms.")
    s.add_argument("results", help="a results folder holding series.csv")
    s.add_argument("--out", default="plots", help="folder for series-<scenario>.png and .pdf (default: plots)")
    s.add_argument("--what", nargs="+", choices=sorted(SERIES_WHAT),
                   help="quantities to draw (default: all in the file; queue is packets and octets)")
    s.add_argument("--subject", action="append",
                   help="only subjects matching this shell pattern ('bulk/*', 'left->*'); repeatable")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m iwarpsim.plot", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True,
                            metavar="{%s}" % ",".join(sorted(COMMANDS) + ["series", "slowdown", "collective"]))
    sweep_options = argparse.ArgumentParser(add_help=False)  # the figures made from sweeps
    sweep_options.add_argument("--out", default="plots", help="folder for <what>.png, .pdf and .csv (default: plots)")
    sweep_options.add_argument("--csv", help="plot this CSV (written by an earlier run of the same command) "
                                             "instead of simulating")
    sweep_options.add_argument("--jobs", type=int, default=None, help="worker processes (default: all cores)")
    sweep_options.add_argument("--repeats", type=int, default=1, help="seeds per point (default 1)")
    sweep_options.add_argument("--cache-dir", default=None,
                               help="sweep cache (default $IWARPSIM_CACHE, else $XDG_CACHE_HOME/iwarpsim or "
                                    "~/.cache/iwarpsim)")
    sweep_options.add_argument("--dask", action="store_true", help="run the sweeps on a local Dask cluster")
    sweep_options.add_argument("--quick", action="store_true", help="fewer points and messages (tests)")
    for name in sorted(COMMANDS):
        sub.add_parser(name, parents=[sweep_options], help="the %s figure (runs its sweeps)" % name)
    _series_parser(sub)
    from . import plot_collective, plot_slowdown  # here, not at the top: they import this module for _figure and _save
    plot_slowdown.slowdown_parser(sub)
    plot_collective.collective_parser(sub)
    args = ap.parse_args(argv)
    if args.command == "series":
        return series_main(args)
    if args.command == "slowdown":
        return plot_slowdown.slowdown_main(args)
    if args.command == "collective":
        return plot_collective.collective_main(args)
    data, draw = COMMANDS[args.command]
    if args.csv:
        df = pd.read_csv(args.csv)
    else:
        # one pool of worker processes for all the sweeps of the figure (their start-up is paid once)
        args.executor = None if args.dask else local_executor(args.jobs)
        try:
            df = data(args)
        except KeyboardInterrupt:  # the sweep said what it kept; no traceback
            return 130
        finally:
            if args.executor is not None:
                args.executor.shutdown()
        os.makedirs(args.out, exist_ok=True)
        df.to_csv(os.path.join(args.out, args.command + ".csv"), index=False)
    draw(df, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
