"""The `collective` figure of python3 -m iwarpsim.plot: every rank's every step of a collective, from results folders.

    python3 -m iwarpsim.plot collective RESULTS_DIR [RESULTS_DIR ...] --out plots [--workload NAME] [--iteration N]

It runs nothing: it reads each folder's summary.json (its `collective` workload, doc/collectives.md, "What is
reported") and collective-steps.csv (one row per iteration, rank and step: when the rank posted its Send of the
step and when all its receives of the step had completed, absolute ns). One row of two panels per folder:

- left, a heat map of the step time at each rank (µs): the step's done_ns minus the instant the step could
  start at that rank. Step 0 could start when the rank began the iteration: iteration 0's begun_ns (every rank
  begins it then); for a later one, the rank's own end of the iteration before plus the gap (the rank begins
  then, doc/collectives.md, "Iterations"; begun_ns is the first rank's start only). Step s > 0 could start at
  the rank's done_ns of step s - 1 (when the rank received nothing in s - 1, of the step before it that it
  received in). For a rank that sends in every step that is done_ns - posted_ns; defined so, a rank that only
  receives in a step has its time too. A cell with no time (no row, or no receive done) is grey.
- right, per rank, the iteration's end there counted from the iteration's begin (per_iteration.rank_end_ns:
  its receives and its Sends all completed), against collective_ideal_ns; the last rank is named.

The iteration drawn is the last completed one, or --iteration N. DIR/collective.png and .pdf hold the figure;
DIR/collective.csv the data drawn: one row per row of collective-steps.csv in the iteration drawn (a rank with
no such row gets one with an empty step, so that its end is kept), with the rank's end and the ideal.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import matplotlib
import matplotlib.transforms
import numpy as np
import pandas as pd

from . import plot

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import SubFigure

COLLECTIVE_COLUMNS = ["folder", "workload", "iteration", "rank", "host", "step", "step_ns", "rank_end_ns", "ideal_ns"]
STEPS_CSV = "collective-steps.csv"
LLP = {"tcp": "MPA/TCP", "sctp": "SCTP", "rocev2": "RoCEv2"}
IDEAL_LABEL = "ideal (each message alone on the empty network)"
LAST_COLOR, BAR_COLOR, LATE_COLOR = "tab:red", "tab:blue", "0.85"
MAX_TICKS = 32  # ranks or steps labelled one by one; beyond, a label every few
BELOW = 34  # points below an axes' bottom to its notes and legend: clear of its tick labels and axis label


@dataclass
class CollectiveRun:
    """One folder's collective workload at the iteration drawn."""
    folder: str
    summary: dict[str, Any]
    workload: dict[str, Any]
    iteration: dict[str, Any]  # its per_iteration entry
    starts: list[int]  # by rank: when the rank began the iteration, counted from its begun_ns
    steps: pd.DataFrame  # the iteration's rows of collective-steps.csv, with step_ns

    @property
    def collective(self) -> dict[str, Any]:
        c: dict[str, Any] = self.workload["collective"]
        return c

    @property
    def ranks(self) -> list[str]:
        return list(self.collective["ranks"])


def _fail(message: str) -> SystemExit:
    return SystemExit("collective: " + message)


def _summary(folder: str) -> dict[str, Any]:
    path = os.path.join(folder, "summary.json")
    if not os.path.isfile(path):
        raise _fail("%s has no summary.json (not a results folder of iwarp-sim run)" % folder)
    with open(path) as f:
        summary: dict[str, Any] = json.load(f)
    return summary


def _kinds(workloads: list[dict[str, Any]]) -> str:
    return ", ".join("%s (%s)" % (w.get("name"), w.get("kind")) for w in workloads) or "no workload"


def pick_workload(folder: str, summary: dict[str, Any], name: str | None) -> dict[str, Any]:
    """The collective workload named `name`, or the folder's only one."""
    workloads = summary.get("workloads") or []
    if name is not None:
        named = [w for w in workloads if w.get("name") == name]
        if not named:
            raise _fail("%s has no workload named %r (it has: %s)" % (folder, name, _kinds(workloads)))
        if named[0].get("kind") != "collective":
            raise _fail("workload %r of %s is of kind %s, not collective" % (name, folder, named[0].get("kind")))
        chosen = named
    else:
        chosen = [w for w in workloads if w.get("kind") == "collective"]
        if not chosen:
            raise _fail("%s has no collective workload (it has: %s)" % (folder, _kinds(workloads)))
        if len(chosen) > 1:
            raise _fail("%s has %d collective workloads (%s): --workload NAME picks one"
                        % (folder, len(chosen), ", ".join(repr(w.get("name")) for w in chosen)))
    w = chosen[0]
    if not w.get("collective"):
        raise _fail("collective workload %r of %s reports no `collective` object (a summary.json written before "
                    "collectives were reported?)" % (w.get("name"), folder))
    return w


def pick_iteration(folder: str, w: dict[str, Any], iteration: int | None) -> dict[str, Any]:
    """The per_iteration entry of `iteration`, or of the last completed iteration."""
    c = w["collective"]
    ready, n = int(c.get("ranks_ready", 0)), len(c["ranks"])
    if ready < n:
        raise _fail("the collective %r of %s never began: only %d of %d ranks connected"
                    % (w.get("name"), folder, ready, n))
    began = c.get("per_iteration") or []
    if iteration is not None:
        found = [i for i in began if i["iteration"] == iteration]
        if not found:
            raise _fail("iteration %d of %r in %s never began (those that did: %s)"
                        % (iteration, w.get("name"), folder, ", ".join(str(i["iteration"]) for i in began) or "none"))
        return found[0]
    done = [i for i in began if i.get("completion_ns") is not None]
    if not done:
        raise _fail("no iteration of %r in %s completed (%d began: --iteration N draws one of them)"
                    % (w.get("name"), folder, len(began)))
    return max(done, key=lambda i: int(i["iteration"]))


def rank_starts(c: dict[str, Any], it: dict[str, Any]) -> list[int]:
    """When each rank began iteration `it`, in ns from its begun_ns: 0 for iteration 0; for a later one the rank's
    end of the iteration before plus the gap (whole ns in summary.json: within 1 ns of the rank's step-0 post)."""
    n = len(c["ranks"])
    before = [i for i in c.get("per_iteration") or [] if i["iteration"] == it["iteration"] - 1]
    if not before:
        return [0] * n
    prev = before[0]
    return [0 if e is None else int(prev["begun_ns"]) + int(e) + int(c.get("gap_ns") or 0) - int(it["begun_ns"])
            for e in prev["rank_end_ns"]]


def step_times(rows: pd.DataFrame, starts: Sequence[int], begun_ns: int) -> pd.Series:
    """Each row's step time (see the module's docstring); NA where the row has no done_ns."""
    out = pd.Series(pd.NA, index=rows.index, dtype="Int64")
    for rank, g in rows.groupby("rank"):
        start = begun_ns + int(starts[int(rank)])  # step 0 could start when the rank began the iteration
        for idx, done in g.sort_values("step")["done_ns"].items():
            if pd.isna(done):
                continue  # nothing received in this step: the next one could start when the one before did
            out[idx] = int(done) - start
            start = int(done)
    return out


def _steps(folder: str, w: dict[str, Any], it: dict[str, Any], starts: Sequence[int]) -> pd.DataFrame:
    path = os.path.join(folder, STEPS_CSV)
    if not os.path.isfile(path):
        raise _fail("%s has no %s (written by a collective workload)" % (folder, STEPS_CSV))
    df = pd.read_csv(path, dtype={"workload": str, "host": str, "posted_ns": "Int64", "done_ns": "Int64"})
    rows = df[(df["workload"] == str(w.get("name"))) & (df["iteration"] == it["iteration"])].copy()
    if rows.empty:
        raise _fail("%s has no row of workload %r, iteration %d" % (path, w.get("name"), it["iteration"]))
    n = len(w["collective"]["ranks"])
    if not rows["rank"].between(0, n - 1).all():
        raise _fail("%s: ranks outside 0..%d in workload %r" % (path, n - 1, w.get("name")))
    rows = rows.sort_values(["rank", "step"]).reset_index(drop=True)
    rows["step_ns"] = step_times(rows, starts, int(it["begun_ns"]))
    return rows


def collective_data(folders: Sequence[str], workload: str | None = None,
                    iteration: int | None = None) -> list[CollectiveRun]:
    """Each folder's collective workload (the one named, or its only one) at the iteration asked or the last
    completed; SystemExit naming the folder for one that cannot be drawn."""
    runs = []
    for folder in folders:
        s = _summary(folder)
        w = pick_workload(folder, s, workload)
        it = pick_iteration(folder, w, iteration)
        starts = rank_starts(w["collective"], it)
        runs.append(CollectiveRun(folder, s, w, it, starts, _steps(folder, w, it, starts)))
    return runs


def collective_frame(runs: Sequence[CollectiveRun]) -> pd.DataFrame:
    """The CSV: one row per step row drawn, plus one with an empty step for a rank that has none."""
    frames = []
    for run in runs:
        d = run.steps[["rank", "host", "step", "step_ns"]].copy()
        missing = sorted(set(range(len(run.ranks))) - set(d["rank"]))
        if missing:
            d = pd.concat([d, pd.DataFrame({"rank": missing, "host": [run.ranks[r] for r in missing]})],
                          ignore_index=True)
        ends = run.iteration["rank_end_ns"]
        d["rank_end_ns"] = pd.array([ends[int(r)] for r in d["rank"]], dtype="Int64")
        d["step"] = d["step"].astype("Int64")
        d.insert(0, "folder", run.folder)
        d.insert(1, "workload", run.workload.get("name"))
        d.insert(2, "iteration", int(run.iteration["iteration"]))
        d["ideal_ns"] = run.workload.get("collective_ideal_ns")
        frames.append(d.sort_values(["rank", "step"], na_position="last"))
    return pd.concat(frames, ignore_index=True)[COLLECTIVE_COLUMNS]


# ---------------------------------------------------------------------------------------------- drawing
def _unit(peak_ns: float) -> tuple[float, str]:
    return (1e6, "ms") if peak_ns >= 1e6 else (1e3, "µs")


def _fmt(ns: float) -> str:
    scale, unit = _unit(ns)
    return "%.3g %s" % (ns / scale, unit)


def _rank_ticks(ax: Axes, run: CollectiveRun) -> None:
    """Every rank labelled "rank (host)" up to MAX_TICKS ranks, beyond that every k-th and the last to end; the
    last to end in red."""
    n, last = len(run.ranks), run.iteration.get("last_rank")
    every = math.ceil(n / MAX_TICKS)
    ranks = sorted(set(range(0, n, every)) | ({int(last)} if last is not None else set()))
    ax.set_yticks(ranks)
    ax.set_yticklabels(["%d (%s)" % (r, run.ranks[r]) for r in ranks])
    for r, label in zip(ranks, ax.get_yticklabels()):
        if r == last:
            label.set_color(LAST_COLOR)
            label.set_fontweight("bold")


def _iteration_note(run: CollectiveRun) -> str:
    it, c = run.iteration, run.collective
    done = [i for i in c.get("per_iteration") or [] if i.get("completion_ns") is not None]
    if it.get("completion_ns") is None:
        ended = sum(e is not None for e in it["rank_end_ns"])
        return "iteration %d (not completed: %d of %d ranks ended it)" % (it["iteration"], ended, len(run.ranks))
    last = bool(done) and int(it["iteration"]) == max(int(i["iteration"]) for i in done)
    return "iteration %d%s" % (it["iteration"], " (the last completed of %d)" % len(done) if last else "")


def _heatmap(fig: SubFigure, ax: Axes, run: CollectiveRun, rows: int) -> None:
    c = run.collective
    n, steps = len(run.ranks), int(run.steps["step"].max()) + 1
    grid = np.full((n, steps), np.nan)
    for r, s, v in zip(run.steps["rank"], run.steps["step"], run.steps["step_ns"]):
        if not pd.isna(v):
            grid[int(r), int(s)] = float(v) / 1e3
    cmap = matplotlib.colormaps["viridis"].copy()
    cmap.set_bad("0.85")
    top = float(np.nanmax(grid)) if np.isfinite(grid).any() else 1.0
    image = ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, aspect="auto", interpolation="nearest",
                      vmin=min(0.0, float(np.nanmin(grid)) if np.isfinite(grid).any() else 0.0), vmax=top)
    bar = fig.colorbar(image, ax=ax, pad=0.02, fraction=0.05)
    bar.set_label("step time at the rank (µs%s)" % ("; this row's scale" if rows > 1 else ""))
    ax.set_xticks(range(0, steps, math.ceil(steps / MAX_TICKS)))
    ax.set_xlabel("step")
    _rank_ticks(ax, run)
    ax.set_ylabel("rank (host)")
    ax.set_title("%s, %d ranks, %s, %s\nstep time, taken at the receiving rank: its receives of the step all done "
                 "− the step's start there\n(step 0: the rank's begin of the iteration; step s: its step s − 1 done)"
                 % (c.get("algorithm"), n, plot.size_label(int(c["size_octets"])), _iteration_note(run)), fontsize=9)
    gaps = int(np.isnan(grid).sum())
    if gaps:
        ax.annotate("grey: %d cell%s with no time (nothing received at the rank in that step, or not yet)"
                    % (gaps, "" if gaps == 1 else "s"), xy=(0, 0), xycoords="axes fraction", xytext=(0, -BELOW),
                    textcoords="offset points", fontsize=8, color="0.3", va="top")


def _ends(ax: Axes, run: CollectiveRun) -> None:
    it, n = run.iteration, len(run.ranks)
    ideal = run.workload.get("collective_ideal_ns")
    ends = [None if e is None else float(e) for e in it["rank_end_ns"]]
    peak = max([e for e in ends if e is not None] + [float(ideal or 0), 1.0])
    scale, unit = _unit(peak)
    last = it.get("last_rank")
    others = [(r, e) for r, e in enumerate(ends) if r != last and e is not None]
    if others:
        ax.barh([r for r, _ in others], [e / scale for _, e in others], color=BAR_COLOR, height=0.7,
                label="the other ranks")
    if last is not None and ends[last] is not None:
        ratio = " = %.2f × ideal" % (ends[last] / ideal) if ideal else ""
        ax.barh([last], [ends[last] / scale], color=LAST_COLOR, height=0.7,
                label="last to end: rank %d (%s), %s%s" % (last, run.ranks[last], _fmt(ends[last]), ratio))
    late = [s / scale for s in run.starts]
    if max(late) > 0.01 * peak / scale:  # a rank that began visibly after the first: the time before, pale
        ax.barh(range(n), late, color=LATE_COLOR, height=0.7,
                label="before the rank began it (its end of the iteration before + gap)")
    for r, e in enumerate(ends):
        if e is None:
            ax.text(0, r, " did not end", va="center", fontsize=8, color=LAST_COLOR)
    if ideal is not None:
        ax.axvline(ideal / scale, color="black", ls="--", lw=1.2, label="%s: %s" % (IDEAL_LABEL, _fmt(ideal)))
    ax.set_xlim(0, peak / scale * 1.04)
    ax.set_ylim(n - 0.5, -0.5)
    _rank_ticks(ax, run)
    ax.set_xlabel("iteration's end at the rank, from the iteration's begin (%s)" % unit)
    ax.set_title("each rank's end of the iteration\n(its receives and its Sends all completed)", fontsize=9)
    ax.grid(True, axis="x", alpha=0.3)
    # below the axes: the bars fill the panel
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, 0), frameon=False,
              bbox_transform=matplotlib.transforms.offset_copy(ax.transAxes, fig=ax.figure, y=-BELOW, units="points"))


def operating_point(run: CollectiveRun) -> str:
    """A row's title: the folder, scenario, seed and overrides; the workload's transport and gap; the completion."""
    s, w, c, it = run.summary, run.workload, run.collective, run.iteration
    head = "%s: scenario %s, seed %s" % (os.path.basename(os.path.normpath(run.folder)), s.get("scenario"),
                                         s.get("seed"))
    if s.get("overrides"):
        head += " (%s)" % ", ".join(map(str, s["overrides"]))
    head = "\n".join(textwrap.wrap(head, 140))
    head += "\nworkload %s over %s, gap %s" % (w.get("name"), LLP.get(str(w.get("llp")), w.get("llp")),
                                               _fmt(float(c.get("gap_ns") or 0)))
    done, ideal = it.get("completion_ns"), w.get("collective_ideal_ns")
    if done is not None:
        head += "; iteration %d took %s" % (it["iteration"], _fmt(float(done)))
        if ideal:
            head += " = %.2f × ideal" % (float(done) / float(ideal))
    return head


def collective_plot(runs: Sequence[CollectiveRun], out: str) -> list[str]:
    heights = [max(3.2, 0.32 * min(len(r.ranks), MAX_TICKS) + 2.8) for r in runs]
    fig = plot._figure(14, sum(heights))
    fig.set_layout_engine("constrained")
    rows = fig.subfigures(len(runs), 1, height_ratios=heights, squeeze=False)[:, 0]
    for sub, run in zip(rows, runs):
        axes = sub.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
        _heatmap(sub, axes[0], run, len(runs))
        _ends(axes[1], run)
        sub.suptitle(operating_point(run), fontsize=10, fontweight="bold")
    return plot._save(fig, out, "collective")


def collective_main(args: argparse.Namespace) -> int:
    runs = collective_data(args.results, args.workload, args.iteration)
    df = collective_frame(runs)
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "collective.csv")
    df.to_csv(path, index=False)
    collective_plot(runs, args.out)
    print(path)
    return 0


def collective_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    s = sub.add_parser("collective", help="draw per-rank, per-step times of a collective workload from results folders",
                       description="A heat map of every rank's step times and each rank's end of the iteration "
                                   "against the ideal, one row per folder; runs nothing (doc/collectives.md).")
    s.add_argument("results", nargs="+", metavar="RESULTS_DIR",
                   help="results folders holding summary.json and collective-steps.csv")
    s.add_argument("--out", default="plots", metavar="DIR",
                   help="folder for collective.png, .pdf and .csv (default: plots)")
    s.add_argument("--workload", metavar="NAME",
                   help="the collective workload of this name (default: the folder's only one)")
    s.add_argument("--iteration", type=int, metavar="N", help="the iteration drawn (default: the last completed)")
