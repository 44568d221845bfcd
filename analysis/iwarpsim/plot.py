"""Figures from sweeps of the built-in scenarios (scenarios.py), as PNG and PDF.

    python3 -m iwarpsim.plot latency  --out plots   # latency vs message size: Send, Write, Read, sockets
    python3 -m iwarpsim.plot savings  --out plots   # CPU cycles and bus bytes per delivered byte
    python3 -m iwarpsim.plot loss     --out plots   # throughput vs loss rate and vs reordering
    python3 -m iwarpsim.plot fct      --out plots   # flow-completion-time CDF of an incast

Each command runs its (small) sweeps itself, cached (--cache-dir), and writes DIR/<name>.png, .pdf and
the data as DIR/<name>.csv; --csv FILE plots a CSV written before instead of running anything.
--quick runs fewer points (for tests).
"""
import argparse
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402
import pandas as pd  # noqa: E402

from . import scenarios  # noqa: E402
from .sweep import local_executor, sweep  # noqa: E402

_UNITS = {"": 1, "B": 1, "KB": 10**3, "KIB": 2**10, "MB": 10**6, "MIB": 2**20, "GB": 10**9, "GIB": 2**30}
COLORS = {"send": "tab:blue", "write": "tab:orange", "read": "tab:green", "sockets": "tab:red",
          "rdma": "tab:orange"}
LABELS = {"send": "RDMA Send (ping-pong, half round trip)", "write": "RDMA Write (ping-pong, half round trip)",
          "read": "RDMA Read (post to completion, round trip)", "sockets": "TCP sockets (ping-pong, half round trip)",
          "rdma": "RDMA Write (iWARP)"}


def size_bytes(text):
    m = re.fullmatch(r"\s*([0-9.]+)\s*([A-Za-z]*)\s*", str(text))
    if not m or m.group(2).upper() not in _UNITS:
        raise ValueError("not a size: %r" % (text,))
    return int(float(m.group(1)) * _UNITS[m.group(2).upper()])


def size_label(n):
    for unit, f in (("MiB", 2**20), ("KiB", 2**10)):
        if n >= f and n % f == 0:
            return "%d %s" % (n // f, unit)
    return "%d B" % n


def _save(fig, out, name):
    os.makedirs(out, exist_ok=True)
    paths = [os.path.join(out, name + ext) for ext in (".png", ".pdf")]
    for p in paths:
        fig.savefig(p, dpi=150, bbox_inches="tight")
    plt.close(fig)
    for p in paths:
        print(p)
    return paths


def _sweep(base, grid, args, desc):
    return sweep(base, grid=grid, repeats=args.repeats, jobs=args.jobs, cache_dir=args.cache_dir,
                 dask=args.dask, desc=desc, executor=args.executor)


def _sweeps(variants, base_of, grid, args, label):
    frames = []
    for v in variants:
        df = _sweep(base_of(v), grid, args, "%s %s" % (label, v))
        df.insert(0, "variant", v)
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


# ---------------------------------------------------------------------------------------------- latency
def latency_data(args):
    sizes = ["64", "4KiB", "64KiB"] if args.quick else ["64", "1KiB", "4KiB", "16KiB", "64KiB", "256KiB", "1MiB"]
    df = _sweeps(["send", "write", "read", "sockets"], lambda v: scenarios.latency(v, count=5 if args.quick else 20),
                 {"workloads.0.size": sizes}, args, "latency")
    df["size_bytes"] = df["workloads.0.size"].map(size_bytes)
    return df


def latency_plot(df, out):
    fig, ax = plt.subplots(figsize=(7.5, 5))
    for v in ["send", "write", "read", "sockets"]:
        d = df[df["variant"] == v].groupby("size_bytes")[["latency_p50_ns", "latency_p99_ns"]].mean().sort_index()
        if d.empty:
            continue
        ax.plot(d.index, d["latency_p50_ns"] / 1e3, "o-", color=COLORS[v], label=LABELS[v] + ", p50")
        ax.plot(d.index, d["latency_p99_ns"] / 1e3, ":", color=COLORS[v], alpha=0.7)
    ax.plot([], [], "k:", label="dotted: p99 of the same")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ticks = sorted(df["size_bytes"].unique())
    ax.set_xticks(ticks)
    ax.set_xticklabels([size_label(t) for t in ticks])
    ax.set_xlabel("message size")
    ax.set_ylabel("latency (µs, log scale)")
    ax.set_title("Latency vs message size\ntwo hosts, 10 Gb/s link, 2 µs propagation delay")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    return _save(fig, out, "latency")


# ---------------------------------------------------------------------------------------------- savings
def savings_data(args):
    sizes = ["64KiB"] if args.quick else ["4KiB", "64KiB", "1MiB"]
    # a fixed number of messages, all delivered, so that the host counters cover exactly the bytes counted
    df = _sweeps(["rdma", "sockets"], lambda v: scenarios.stream(v, count=8 if args.quick else 32, stop="1s"),
                 {"workloads.0.size": sizes}, args, "savings")
    df["size_bytes"] = df["workloads.0.size"].map(size_bytes)
    return df


def savings_plot(df, out):
    sizes = sorted(df["size_bytes"].unique())
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.8))
    metrics = [("cpu_cycles_per_byte", "CPU cycles per delivered byte"),
               ("bus_bytes_per_byte", "memory-bus bytes per delivered byte")]
    bars = [("sockets", "src", "TCP sockets, sender", "tab:red", None),
            ("sockets", "dst", "TCP sockets, receiver", "tab:red", "//"),
            ("rdma", "src", "RDMA Write, sender", "tab:orange", None),
            ("rdma", "dst", "RDMA Write, receiver", "tab:orange", "//")]
    width = 0.8 / len(bars)
    for ax, (metric, title) in zip(axes, metrics):
        for j, (variant, role, label, color, hatch) in enumerate(bars):
            d = df[df["variant"] == variant].groupby("size_bytes")["%s_%s" % (role, metric)].mean()
            ys = [float(d.get(s, float("nan"))) for s in sizes]
            xs = [i + (j - (len(bars) - 1) / 2) * width for i in range(len(sizes))]
            rects = ax.bar(xs, ys, width, label=label, color=color, hatch=hatch, edgecolor="black", linewidth=0.5)
            ax.bar_label(rects, labels=["n/a" if y != y else "%.2f" % y for y in ys], fontsize=7, padding=2)
        ax.set_xticks(range(len(sizes)))
        ax.set_xticklabels([size_label(s) for s in sizes])
        ax.set_xlabel("message size")
        ax.set_ylabel(title + " (lower is better)")
        ax.set_title(title)
        ax.set_ylim(0, 1.6 * max(1e-9, float(df[["src_" + metric, "dst_" + metric]].max().max())))
        ax.grid(True, axis="y", alpha=0.3)
    axes[0].legend(fontsize=8, loc="upper left", ncol=2)
    rdma = df[df["variant"] == "rdma"][["src_cpu_cycles_per_byte", "dst_cpu_cycles_per_byte"]]
    if not rdma.empty and float(rdma.abs().max().max()) == 0.0:
        axes[0].text(0.98, 0.80, "RDMA: 0 cycles per byte (the RNIC places\ndata by DMA; the model charges no CPU)",
                     transform=axes[0].transAxes, ha="right", va="top", fontsize=8,
                     bbox=dict(boxstyle="round", fc="white", ec="tab:orange"))
    n = df.groupby("variant")["messages"].max().to_dict()
    fig.suptitle("Host cost of moving data: RDMA Write vs TCP sockets stream h0 → h1 over 10 Gb/s "
                 "(%s messages per run)" % "/".join(str(int(v)) for v in sorted(set(n.values()))))
    fig.tight_layout()
    return _save(fig, out, "savings")


# ---------------------------------------------------------------------------------------------- loss
def loss_data(args):
    losses = [0, 1e-4, 1e-2] if args.quick else [0, 1e-5, 1e-4, 1e-3, 1e-2]
    fractions = [0, 0.05] if args.quick else [0, 0.001, 0.01, 0.05, 0.2]
    a = _sweeps(["rdma", "sockets"], lambda v: scenarios.impaired_stream(v, "loss"), {"links.loss": losses},
                args, "loss")
    a["impairment"], a["level"] = "loss", a["links.loss"]
    b = _sweeps(["rdma", "sockets"], lambda v: scenarios.impaired_stream(v, "reorder"),
                {"links.reorder.fraction": fractions}, args, "reorder")
    b["impairment"], b["level"] = "reorder", b["links.reorder.fraction"]
    df = pd.concat([a, b], ignore_index=True)
    # goodput: the octets of the messages delivered at the sink within the 8 ms the stream posts (the
    # summary's throughput_bps spans first post to last completion, which flatters runs that deliver few
    # messages, and counts messages delivered after the 8 ms)
    df["goodput_bps"] = [_delivered_octets(d, scenarios.IMPAIRED_DURATION_S) * 8 / scenarios.IMPAIRED_DURATION_S
                         for d in df["out_dir"]]
    return df


def _delivered_octets(out_dir, until_s):
    m = pd.read_csv(os.path.join(out_dir, "messages.csv"))
    return int(m.loc[m["delivered_ns"].notna() & (m["delivered_ns"] <= until_s * 1e9), "size"].sum())


def loss_plot(df, out):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.8), sharey=True)
    titles = {"loss": ("Throughput vs random loss", "packet loss probability (each link, each direction)"),
              "reorder": ("Throughput vs reordering", "fraction of packets held back 20 µs")}
    for ax, imp in zip(axes, ["loss", "reorder"]):
        d0 = df[df["impairment"] == imp]
        levels = sorted(d0["level"].astype(float).unique())
        for v in ["rdma", "sockets"]:
            g = d0[d0["variant"] == v].groupby(d0["level"].astype(float))["goodput_bps"]
            mean, lo, hi = g.mean() / 1e9, g.min() / 1e9, g.max() / 1e9
            xs = range(len(levels))
            ys = [mean.get(l, float("nan")) for l in levels]
            err = [[ys[i] - lo.get(l, ys[i]) for i, l in enumerate(levels)],
                   [hi.get(l, ys[i]) - ys[i] for i, l in enumerate(levels)]]
            ax.errorbar(xs, ys, yerr=err, fmt="o-", capsize=3, color=COLORS[v],
                        label=LABELS[v] if v == "rdma" else "TCP sockets stream")
        ax.set_xticks(range(len(levels)))
        ax.set_xticklabels(["0" if l == 0 else ("%g" % l) for l in levels])
        ax.set_title(titles[imp][0])
        ax.set_xlabel(titles[imp][1])
        ax.grid(True, alpha=0.3)
        ax.set_ylim(bottom=0)
    axes[0].set_ylabel("goodput: message octets delivered in 8 ms (Gb/s)")
    axes[0].legend(fontsize=8, loc="center left")
    seeds = int(df.groupby(["variant", "impairment", "level"]).size().max())
    fig.suptitle("64 KiB messages h0 → h1 for 8 ms over a 10 Gb/s, 2 µs link (RDMA: 8 outstanding Writes); "
                 "mean of %d seed%s, bars min–max" % (seeds, "" if seeds == 1 else "s"))
    fig.tight_layout()
    return _save(fig, out, "loss")


# ---------------------------------------------------------------------------------------------- fct
def fct_data(args):
    fanins = [2, 4] if args.quick else [2, 4, 8]
    base = scenarios.incast(senders=2, count=5 if args.quick else 10)
    df = _sweep(base, {"workloads.0.senders": [["h%d" % i for i in range(n)] for n in fanins]}, args, "fct")
    frames = []
    for _, row in df.iterrows():
        m = pd.read_csv(os.path.join(row["out_dir"], "messages.csv"))
        m = m[m["completed_ns"].notna()]
        frames.append(pd.DataFrame({"senders": len(row["workloads.0.senders"]), "repeat": row["repeat"],
                                    "size": m["size"], "fct_ns": m["completed_ns"] - m["post_ns"]}))
    return pd.concat(frames, ignore_index=True)


def fct_plot(df, out):
    fig, ax = plt.subplots(figsize=(7.5, 5))
    cmap = plt.get_cmap("viridis")
    fanins = sorted(df["senders"].unique())
    for i, n in enumerate(fanins):
        x = df[df["senders"] == n]["fct_ns"].sort_values().to_numpy() / 1e3
        y = [(k + 1) / len(x) for k in range(len(x))]
        ax.step(x, y, where="post", color=cmap(i / max(1, len(fanins) - 1) * 0.85),
                label="%d senders (p50 %.0f µs, p99 %.0f µs)" % (n, pd.Series(x).quantile(0.5),
                                                                   pd.Series(x).quantile(0.99)))
    lo, hi = float(df["fct_ns"].min()) / 1e3, float(df["fct_ns"].max()) / 1e3
    scale = "log" if lo > 0 and hi / lo > 10 else "linear"  # log only when the times span a decade
    ax.set_xscale(scale)
    if scale == "log":
        ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: "%g" % v))
    else:
        ax.set_xlim(left=0)
    ax.set_xlabel("flow completion time: post to completion of one 64 KiB Write (µs%s)"
                  % (", log scale" if scale == "log" else ""))
    ax.set_ylabel("fraction of messages ≤ x")
    ax.set_ylim(0, 1.02)
    per = df.groupby(["senders", "repeat"]).size().groupby(level=0).mean() / df["senders"].drop_duplicates().sort_values().to_numpy()
    ax.set_title("Incast flow-completion-time CDF: N senders → h8, %d Writes each, one at a time\n"
                 "dumbbell, 10 Gb/s bottleneck with a 100-packet queue" % round(float(per.iloc[0])))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2, frameon=False)
    return _save(fig, out, "fct")


COMMANDS = {"latency": (latency_data, latency_plot), "savings": (savings_data, savings_plot),
            "loss": (loss_data, loss_plot), "fct": (fct_data, fct_plot)}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m iwarpsim.plot", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=sorted(COMMANDS), help="which figure")
    ap.add_argument("--out", default="plots", help="folder for <what>.png, .pdf and .csv (default: plots)")
    ap.add_argument("--csv", help="plot this CSV (written by an earlier run of the same command) instead of simulating")
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (default: all cores)")
    ap.add_argument("--repeats", type=int, default=1, help="seeds per point (default 1)")
    ap.add_argument("--cache-dir", default=None, help="sweep cache (default $IWARPSIM_CACHE or ./iwarpsim-cache)")
    ap.add_argument("--dask", action="store_true", help="run the sweeps on a local Dask cluster")
    ap.add_argument("--quick", action="store_true", help="fewer points and messages (tests)")
    args = ap.parse_args(argv)
    data, draw = COMMANDS[args.what]
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
        df.to_csv(os.path.join(args.out, args.what + ".csv"), index=False)
    draw(df, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
