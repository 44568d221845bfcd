"""The `slowdown` figure of python3 -m iwarpsim.plot: FCT slowdown by flow size, from results folders that exist.

    python3 -m iwarpsim.plot slowdown RESULTS_DIR [RESULTS_DIR ...] --out plots [--workload NAME]

It runs nothing: it reads each folder's summary.json, takes its loads (kinds `traffic` and `sockets-traffic`, or
the workload named) and their `slowdown` buckets (doc/metrics.md, "slowdown"; doc/traffic.md, "Ideal FCT and
slowdown"): per bucket of flow sizes a decade wide, [min_octets, max_octets), the flows posted, those never
delivered (not_completed), the nearest-rank p50/p95/p99/p99.9 of FCT / ideal FCT over the delivered ones and
the p50/p99 of their FCT (null when none was). DIR/slowdown.png and .pdf draw the slowdown's p50 and p99 per
variant (one workload of one folder) and bucket; DIR/slowdown-fct.png and .pdf the FCTs themselves, which
compare kinds whose ideals differ (RDMA and sockets) like with like; DIR/slowdown.csv holds every field, one
row per variant and bucket.
"""
from __future__ import annotations

import argparse
import json
import math
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import matplotlib
import matplotlib.ticker
import matplotlib.transforms
import pandas as pd

from . import plot

if TYPE_CHECKING:
    from matplotlib.axes import Axes

# One row per variant and bucket: which run and workload (variant is the legend's label), then summary.json's
# bucket as it is. Slowdowns are ratios, without a unit; min_octets and max_octets bound the sizes in octets.
BUCKET_FIELDS = ["min_octets", "max_octets", "flows", "not_completed", "p50", "p95", "p99", "p999", "fct_p50_ns",
                 "fct_p99_ns"]
SLOWDOWN_COLUMNS = ["variant", "results", "scenario", "seed", "run", "workload", "llp", "op"] + BUCKET_FIELDS


def decade_label(n: int) -> str:
    """A power of ten, short: 1, 10, 100, 1K, 10K, 100K, 1M, ... (plot.size_label counts in KiB and MiB, which
    a decade's bounds are not)."""
    for suffix, f in (("G", 10**9), ("M", 10**6), ("K", 10**3)):
        if n >= f and n % f == 0:
            return "%d%s" % (n // f, suffix)
    return "%d" % n


def bucket_label(lo: int, hi: int) -> str:
    return "%s–%s" % (decade_label(lo), decade_label(hi))


def _summary(folder: str) -> dict[str, Any]:
    path = os.path.join(folder, "summary.json")
    if not os.path.isfile(path):
        raise SystemExit("slowdown: %s has no summary.json (not a results folder of iwarp-sim run)" % folder)
    with open(path) as f:
        summary: dict[str, Any] = json.load(f)
    return summary


#: The kinds that run a load of flows and report its slowdown: RDMA, and its sockets baseline.
LOAD_KINDS = ("traffic", "sockets-traffic")


def slowdown_data(folders: Sequence[str], workload: str | None = None) -> pd.DataFrame:
    """The slowdown buckets of every load (kind traffic or sockets-traffic; or the workload named `workload`) of
    each results folder."""
    rows = []
    for folder in folders:
        s = _summary(folder)
        workloads = s.get("workloads") or []
        traffic = [w for w in workloads if w.get("kind") in LOAD_KINDS]
        if workload is not None:
            named = [w for w in workloads if w.get("name") == workload]
            if not named:
                raise SystemExit("slowdown: %s has no workload named %r (it has: %s)"
                                 % (folder, workload, ", ".join(repr(w.get("name")) for w in workloads) or "none"))
            if named[0].get("kind") not in LOAD_KINDS:
                raise SystemExit("slowdown: workload %r of %s is of kind %s, not a load (only kinds %s are drawn)"
                                 % (workload, folder, named[0].get("kind"), " and ".join(LOAD_KINDS)))
            traffic = named
        if not traffic:
            raise SystemExit("slowdown: %s has no load (kind traffic or sockets-traffic; it has: %s)"
                             % (folder, ", ".join("%s (%s)" % (w.get("name"), w.get("kind")) for w in workloads)
                                or "no workload"))
        name = os.path.basename(os.path.normpath(folder))
        for w in traffic:
            if w.get("slowdown") is None:
                raise SystemExit("slowdown: traffic workload %r of %s has no slowdown (a summary.json written "
                                 "before slowdown was reported?)" % (w.get("name"), folder))
            head = [_variant(name, w), folder, s.get("scenario"), s.get("seed"),
                    s.get("run"), w.get("name"), w.get("llp"), w.get("op")]
            for b in sorted(w["slowdown"], key=lambda b: int(b["min_octets"])):
                rows.append(head + [b.get(k) for k in BUCKET_FIELDS])
    df = pd.DataFrame(rows, columns=SLOWDOWN_COLUMNS)
    if df.empty:
        raise SystemExit("slowdown: no flow in any bucket of %s (the traffic workloads posted nothing)"
                         % ", ".join(folders))
    return df


def _variant(folder_name: str, w: dict[str, Any]) -> str:
    """The legend's label: the folder and workload, and the operating point summary.json states (`traffic`):
    the flow sizes, the load asked (or the closed loop's flows in flight) and the load the hosts offered
    (doc/metrics.md)."""
    # What carries the flows, so that RDMA and its sockets baseline are told apart: "RDMA write over tcp",
    # "sockets over tcp".
    carrier = ("sockets" if w.get("kind") == "sockets-traffic" else "RDMA %s" % w.get("op")) + " over " + str(w.get("llp"))
    label = "%s: %s (%s)" % (folder_name, w.get("name"), carrier)
    point = w.get("traffic")
    if point:
        if point.get("load") is not None:
            label += ", %s at load %g" % (point.get("flow_sizes"), point["load"])
        else:  # a closed loop: no load asked, `outstanding` flows per host
            label += ", %s, closed loop of %s" % (point.get("flow_sizes"), point.get("outstanding"))
        if point.get("offered_load") is not None:
            label += " (offered %.2f)" % point["offered_load"]
    return label


def _number(x: Any) -> float:
    """A percentile of the CSV or summary.json as a float: NaN for null (none delivered)."""
    return float("nan") if x is None or x != x else float(x)


def _log_axis(ax: Axes, lo: float, hi: float) -> None:
    """Slowdown on a log axis from lo to hi, every decade labelled (1, 10, 100), the 2..9 between ticked."""
    ax.set_yscale("log")
    ax.set_ylim(lo, hi)
    ax.yaxis.set_major_locator(matplotlib.ticker.LogLocator(base=10, numticks=30))
    ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: "%g" % v))
    ax.yaxis.set_minor_locator(matplotlib.ticker.LogLocator(base=10, subs=tuple(range(2, 10)), numticks=30))
    ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())


def _percentile_lines(ax: Axes, df: pd.DataFrame, columns: tuple[str, str], scale: float = 1.0) -> tuple[list, list]:
    """Each variant's p50 (solid, circles) and p99 (dashed, triangles) of `columns` per size bucket, times
    `scale`, its markers dodged beside the other variants' within the bucket; a bucket the variant lacks, or
    with nothing delivered, breaks its lines. Returns the p50 and the p99 lines."""
    buckets = _buckets(df)
    where = {b: i for i, b in enumerate(buckets)}
    variants = list(dict.fromkeys(df["variant"]))
    cmap = matplotlib.colormaps["tab10"]
    p50s, p99s = [], []
    for i, v in enumerate(variants):
        xs = _dodged(i, len(variants), len(buckets))
        y = [[float("nan")] * len(buckets) for _ in columns]
        for _, r in df[df["variant"] == v].iterrows():
            k = where[(int(r["min_octets"]), int(r["max_octets"]))]
            for j, c in enumerate(columns):
                y[j][k] = _number(r[c]) * scale
        p50s += ax.plot(xs, y[0], "o-", color=cmap(i % cmap.N), lw=2, ms=6, label="%s p50" % v)
        p99s += ax.plot(xs, y[1], "v--", color=cmap(i % cmap.N), lw=1.5, ms=6, label="%s p99" % v)
    return p50s, p99s


def _buckets(df: pd.DataFrame) -> list[tuple[int, int]]:
    return sorted({(int(a), int(b)) for a, b in zip(df["min_octets"], df["max_octets"])})


def _dodged(i: int, variants: int, buckets: int) -> list[float]:
    """Variant i's x positions: the buckets' centres, shifted so that the variants' markers sit side by side."""
    dodge = min(0.1, 0.4 / max(1, variants))
    return [x + (i - (variants - 1) / 2) * dodge for x in range(buckets)]


def _size_axis(ax: Axes, buckets: list[tuple[int, int]]) -> None:
    ax.set_xticks(range(len(buckets)))
    ax.set_xticklabels([bucket_label(a, b) for a, b in buckets])
    ax.set_xlim(-0.5, len(buckets) - 0.5)
    ax.set_xlabel("flow size in octets, buckets a decade wide [min, max)  (K = 10³, M = 10⁶)")
    ax.grid(True, axis="y", which="major", alpha=0.4)
    ax.grid(True, axis="y", which="minor", alpha=0.12)


def _legend_below(ax: Axes, p50s: list, p99s: list) -> None:
    """Below the axes, one row per variant (p50 | p99): it covers no line."""
    ax.legend(p50s + p99s, [h.get_label() for h in p50s + p99s], fontsize=8, loc="upper center",
              bbox_to_anchor=(0.5, -0.14), ncol=2, frameon=False)


def slowdown_plot(df: pd.DataFrame, out: str) -> list[str]:
    """p50 (solid, circles) and p99 (dashed, triangles) of each variant per size bucket; a bucket with flows
    never delivered gets "k of n not completed" in the band at the top, in the variant's colour."""
    buckets = _buckets(df)
    where = {b: i for i, b in enumerate(buckets)}
    variants = list(dict.fromkeys(df["variant"]))
    cmap = matplotlib.colormaps["tab10"]
    noted = [v for v in variants if (df[df["variant"] == v]["not_completed"] > 0).any()]
    values = [x for c in ("p50", "p99") for x in map(_number, df[c]) if x > 0]
    lo = min([1.0] + values) / 1.5  # 1 is the ideal: always in view, off the bottom spine
    hi = max([1.0] + values) * 1.5
    band = 0.03 + 0.1 * len(noted)  # the top of the axes, in axes fraction, kept free of data for the notes
    # at least 1 and 10 labelled (10 off the top spine), however close to ideal the flows came
    top = max(15.0, 10 ** (math.log10(lo) + (math.log10(hi) - math.log10(lo)) / (1 - band)))

    fig = plot._figure(max(7.5, 1.0 * len(buckets) + 3), 5.5)
    ax = fig.subplots()
    ax.axhline(1.0, color="0.4", ls=":", lw=1)
    p50s, p99s = _percentile_lines(ax, df, ("p50", "p99"))
    blend = matplotlib.transforms.blended_transform_factory(ax.transData, ax.transAxes)
    for i, v in enumerate(variants):
        if v not in noted:
            continue
        xs = _dodged(i, len(variants), len(buckets))
        for _, r in df[(df["variant"] == v) & (df["not_completed"] > 0)].iterrows():
            # in the band at the top, a row per variant with notes
            ax.text(xs[where[(int(r["min_octets"]), int(r["max_octets"]))]], 1 - 0.02 - 0.1 * noted.index(v),
                    "%d of %d\nnot completed" % (int(r["not_completed"]), int(r["flows"])), transform=blend,
                    ha="center", va="top", fontsize=7, color=cmap(i % cmap.N))
    if noted:
        ax.axhspan(10 ** (math.log10(lo) + (1 - band) * (math.log10(top) - math.log10(lo))), top, color="0.95",
                   zorder=1.6, lw=0)  # over the grid (1.5), under the lines (2): no data is up there
    _size_axis(ax, buckets)
    _log_axis(ax, lo, top)
    ax.set_ylabel("slowdown: FCT / ideal FCT (log scale; 1 = ideal, dotted)")
    ax.set_title("FCT slowdown (FCT / ideal FCT, at the receiver) by flow size\n"
                 "p50 solid, p99 dashed: nearest-rank over the flows delivered in each bucket; "
                 "a bucket with none delivered has no point", fontsize=10)
    _legend_below(ax, p50s, p99s)
    fig.tight_layout()
    return plot._save(fig, out, "slowdown")


def fct_plot(df: pd.DataFrame, out: str) -> list[str]:
    """The FCTs of the slowdown figure's flows, p50 and p99 per bucket in ms: each kind's ideal holds its own
    fixed costs, so this is the figure that compares RDMA with the sockets baseline like with like."""
    buckets = _buckets(df)
    fig = plot._figure(max(7.5, 1.0 * len(buckets) + 3), 5.5)
    ax = fig.subplots()
    p50s, p99s = _percentile_lines(ax, df, ("fct_p50_ns", "fct_p99_ns"), scale=1e-6)
    values = [_number(x) * 1e-6 for c in ("fct_p50_ns", "fct_p99_ns") for x in df[c] if _number(x) > 0]
    _size_axis(ax, buckets)
    _log_axis(ax, min(values or [1e-3]) / 1.5, max(values or [1.0]) * 1.5)
    ax.set_ylabel("FCT in ms (log scale)")
    ax.set_title("FCT by flow size: from the flow's arrival at its sender (queueing there included) to its last "
                 "octet at the receiver\np50 solid, p99 dashed: nearest-rank over the flows delivered in each bucket",
                 fontsize=10)
    _legend_below(ax, p50s, p99s)
    fig.tight_layout()
    return plot._save(fig, out, "slowdown-fct")


def slowdown_main(args: argparse.Namespace) -> int:
    df = slowdown_data(args.results, args.workload)
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "slowdown.csv")
    df.to_csv(path, index=False)
    slowdown_plot(df, args.out)
    fct_plot(df, args.out)
    print(path)
    return 0


def slowdown_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    s = sub.add_parser("slowdown", help="draw FCT slowdown by flow size from results folders (traffic workloads)",
                       description="p50 and p99 of FCT / ideal FCT per flow-size bucket, one variant per traffic "
                                   "workload of each folder; runs nothing (doc/metrics.md, \"slowdown\").")
    s.add_argument("results", nargs="+", metavar="RESULTS_DIR", help="results folders holding summary.json")
    s.add_argument("--out", default="plots", metavar="DIR", help="folder for slowdown.png, .pdf and .csv (default: plots)")
    s.add_argument("--workload", metavar="NAME", help="only the traffic workload of this name (default: every traffic workload)")
