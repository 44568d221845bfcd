"""The savings figure: what direct placement saves the hosts, per host profile and link rate.

    python3 -m iwarpsim.plot savings --out plots [--quick]

The operating point: an RDMA Write stream (8 outstanding) and a TCP sockets stream of 64 KiB messages, h0 -> h1,
two hosts on one link of 10, 25, 40, 100 and 200 Gb/s (MTU 9000, 1 µs), both hosts of one profile (host-2005,
host-2015, current; doc/host-model.md) and the RNIC of the link's class (doc/rnic-model.md). Each stream runs as
fast as it goes, so each has its own operating point, which the goodput panel shows: the per-octet costs are
what a delivered octet cost at that point. Per delivered octet, as summary.json's host counters give them:
CPU cycles (the kernel stack, the copies, the RDMA verbs, memory registration apart), memory-bus octets; and the
cores the receiver would need to take the link's bit rate at those costs (its busy time per octet x the rate).
--quick runs the current profile at 10 and 100 Gb/s only.
"""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:
    from collections.abc import Callable

    from matplotlib.figure import Figure

PROFILES = ["host-2005", "host-2015", "current"]
RATES_GBPS = [10, 25, 40, 100, 200]
SIZE = "64KiB"
MTU = 9000
# summary.json's cpu_cycles_<use> counters the plot draws (doc/host-model.md, "Design"); crc is never charged
# on these paths, checksum only where a profile's NIC does not offload it.
USES = ["stack", "copy", "checksum", "verbs", "registration"]
COLUMNS = (["variant", "profile", "rate_bps", "seed", "messages_delivered", "octets_delivered", "completed",
            "goodput_bps", "dst_cpu_busy_ns_per_byte"]
           + ["%s_%s" % (role, m) for m in ["cpu_cycles_per_byte", "bus_bytes_per_byte", "ddio_bytes_per_byte"]
              for role in ("src", "dst")]
           + ["%s_cpu_cycles_%s_per_byte" % (role, u) for u in USES for role in ("src", "dst")])
PROFILE_COLORS = {"host-2005": "tab:brown", "host-2015": "tab:blue", "current": "tab:green"}
VARIANT_STYLES = {"rdma": ("o", "-", "RDMA Write"), "sockets": ("s", "--", "TCP sockets")}


def _base(variant: str, count: int) -> dict[str, Any]:
    from . import scenarios

    s = scenarios.stream(variant, size=SIZE, count=count, stop="2s")
    s["links"]["mtu"] = MTU
    s["links"]["delay"] = "1us"
    s["host"].pop("TcpSocket::SegmentSize", None)  # the runner sizes segments to the MTU
    return s


def savings_data(args: argparse.Namespace, sweeps: Callable[..., pd.DataFrame]) -> pd.DataFrame:
    """One row per variant, profile, rate and seed (COLUMNS), from `sweeps` (plot._sweeps)."""
    profiles = ["current"] if args.quick else PROFILES
    rates = [10, 100] if args.quick else RATES_GBPS
    count = 32 if args.quick else 256
    df = sweeps(["rdma", "sockets"], lambda v: _base(v, count),
                {"host.profile": profiles, "links.rate": ["%dGbps" % r for r in rates]}, args, "savings")
    df["profile"] = df["host.profile"]
    df["rate_bps"] = df["links.rate"].str.replace("Gbps", "").astype(int) * 10**9
    return df[COLUMNS]


def _per_rate(df: pd.DataFrame, variant: str, profile: str, column: str) -> tuple[list[int], list[float]]:
    """(link rates in Gb/s, the mean of `column` at each) of one stream."""
    d = df[(df["variant"] == variant) & (df["profile"] == profile)].groupby("rate_bps")[column].mean()
    return [int(x) // 10**9 for x in d.index], [float(y) for y in d.to_numpy()]


def _lines(ax: Any, df: pd.DataFrame, column: str, scale: Callable[[int, float], float] = lambda x, y: y) -> None:
    """One line per profile and variant of `column` against the link rate, each value through `scale`
    (rate in Gb/s, value)."""
    for profile in [p for p in PROFILES if p in set(df["profile"])]:
        for variant, (marker, style, label) in VARIANT_STYLES.items():
            xs, ys = _per_rate(df, variant, profile, column)
            ax.plot(xs, [scale(x, y) for x, y in zip(xs, ys)], marker=marker, ls=style,
                    color=PROFILE_COLORS[profile], label="%s, %s" % (label, profile))


def _rate_axis(ax: Any, rates: list[int]) -> None:
    ax.set_xscale("log")
    ax.set_xticks(rates)
    ax.set_xticklabels([str(r) for r in rates])
    ax.minorticks_off()
    ax.set_xlabel("link rate (Gb/s)")
    ax.grid(True, which="both", alpha=0.3)


def _uses_at(ax: Any, df: pd.DataFrame, rate: int) -> None:
    """The receiver's and sender's cycles per delivered octet at `rate`, stacked by use, per profile."""
    d = df[df["rate_bps"] == rate * 10**9]
    bars = [(p, v) for p in PROFILES if p in set(d["profile"]) for v in VARIANT_STYLES]
    hatches = {"stack": "", "copy": "//", "checksum": "\\\\", "verbs": "..", "registration": "xx"}
    for i, (profile, variant) in enumerate(bars):
        row = d[(d["profile"] == profile) & (d["variant"] == variant)].mean(numeric_only=True)
        for j, role in enumerate(("dst", "src")):
            bottom = 0.0
            for use in USES:
                h = float(row["%s_cpu_cycles_%s_per_byte" % (role, use)])
                ax.bar(i + (j - 0.5) * 0.4, h, 0.38, bottom=bottom, color=PROFILE_COLORS[profile],
                       alpha=1.0 if role == "dst" else 0.55, hatch=hatches[use], edgecolor="black", linewidth=0.4,
                       label=use if i == 0 and j == 0 else None)
                bottom += h
            ax.text(i + (j - 0.5) * 0.4, bottom, "%.3g" % bottom, ha="center", va="bottom", fontsize=6)
    ax.set_xticks(range(len(bars)))
    ax.set_xticklabels(["%s\n%s" % (VARIANT_STYLES[v][2], p) for p, v in bars], fontsize=6)
    ax.set_ylabel("CPU cycles per delivered octet\n(left bar receiver, right sender)")
    ax.set_title("Where the cycles go at %d Gb/s" % rate)
    ax.legend(fontsize=7, loc="upper right", title="use (hatch)", title_fontsize=7)
    for leg in ax.get_legend().get_patches():
        leg.set_facecolor("white")
    ax.grid(True, axis="y", alpha=0.3)


def savings_plot(df: pd.DataFrame, out: str, figure: Callable[[float, float], Figure],
                 save: Callable[[Figure, str, str], list[str]]) -> list[str]:
    rates = sorted(int(r) // 10**9 for r in df["rate_bps"].unique())
    fig = figure(16, 9.5)
    axes = fig.subplots(2, 3)
    ax = axes[0][0]
    _lines(ax, df, "goodput_bps", lambda x, y: y * 1e-9)
    ax.plot(rates, rates, color="grey", lw=0.8, ls=":", label="link rate")
    ax.set_ylabel("goodput at the receiver (Gb/s)")
    ax.set_yscale("log")
    ax.set_title("Operating point of each stream")
    for ax, role, title in ((axes[0][1], "dst", "receiver"), (axes[0][2], "src", "sender")):
        _lines(ax, df, role + "_cpu_cycles_per_byte")
        ax.set_yscale("log")
        ax.set_ylabel("CPU cycles per delivered octet (log)")
        ax.set_title("CPU cycles per delivered octet, %s" % title)
    axes[0][1].text(0.02, 0.5, "sockets below 40 Gb/s: the receiver keeps up, so each read takes what one\n"
                    "coalesced interrupt (8 µs) brought, less than a whole aggregate, and pays a whole one",
                    transform=axes[0][1].transAxes, fontsize=6.5, va="center")
    ax = axes[1][0]
    _lines(ax, df, "dst_bus_bytes_per_byte")
    ax.set_ylim(0, 3.5)
    ax.set_ylabel("memory-bus octets per delivered octet")
    ax.set_title("Memory-bus traffic, receiver\n(sockets with DDIO: 1 while read from the cache, 3 once evicted)",
                 fontsize=10)
    ax.text(0.02, 0.55, "RDMA 1 in every profile (under the sockets lines at 1). Where a sockets receiver\n"
            "falls behind its sender, its socket buffer (unbounded here) grows past the cache DDIO\n"
            "writes into and more of each run is read from memory: a longer run comes nearer 3",
            transform=ax.transAxes, fontsize=6.5, va="center")
    ax = axes[1][1]
    # busy ns per octet x the link's octets per second, over the ns in a second
    _lines(ax, df, "dst_cpu_busy_ns_per_byte", lambda x, y: y * x * 1e9 / 8 / 1e9)
    ax.set_yscale("log")
    ax.set_ylabel("receiver cores busy to take the link's rate (log)")
    ax.set_title("Cores needed at line rate, receiver\n(RDMA: the profiles' lines coincide)", fontsize=10)
    for ax in (axes[0][0], axes[0][1], axes[0][2], axes[1][0], axes[1][1]):
        _rate_axis(ax, rates)
    _uses_at(axes[1][2], df, 100 if 100 in rates else rates[-1])
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=8, frameon=False)
    n = int(df["messages_delivered"].max())
    fig.suptitle("What direct placement saves the hosts: one RDMA Write stream (8 outstanding) and one TCP sockets "
                 "stream of %d messages of %s h0 → h1, each as fast as it goes;\ntwo hosts of each profile on one "
                 "link (MTU %d, 1 µs), the RNIC of the link's class (t5-40g up to 40 Gb/s, t6-100g above)"
                 % (n, SIZE.replace("KiB", " KiB"), MTU), fontsize=10)
    fig.tight_layout(rect=(0, 0.07, 1, 0.95))
    return save(fig, out, "savings")
