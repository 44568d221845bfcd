"""RoCEv2 beside iWARP under a web-search load (issue 31's side-by-side study): scenarios/roce-web-search.yaml (a k = 4
fat-tree of 25 Gb/s links, 400 KB RED ports marking as DCQCN's switches do, Poisson flows of the web-search sizes at
30 % load, Writes to uniformly drawn hosts) run through one iwarpsim.sweep over the LLP (RoCEv2 as IRN: selective
repeat, 48 packets in flight, no PFC; MPA/TCP with DCTCP; SCTP) and the loss of every link (0 and 0.1 %), and a
second sweep over the same loss for RoCEv2 as commodity fabrics run it (go-back-N, no cap, PFC on priority 3 with
XOFF at 40 KB and XON at 20 KB); then the FCT slowdown per flow-size decade of each variant, drawn by
`python3 -m iwarpsim.plot slowdown`'s code, one figure per loss rate.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/roce-study.py plots/roce-study [--jobs 2] [--duration 10ms]

Prints a markdown table, one row per variant and loss: flows delivered of those posted, the flows not delivered
and why (connections never established, outstanding at the stop, flushed), packets resent (and timer expiries),
packets dropped (by a full or marking queue, by the link's loss), PFC's XOFFs and the time all ports spent paused
(summed), the slowdown p50/p99 per flow-size decade with the flows of the decade that never arrived, the run's
failed physics checks by name and its wall time. Writes OUT/loss-<p>/slowdown.png, .pdf, .csv (and
slowdown-fct.*, the FCTs themselves: the legend names the variant and the loss), OUT/caption.md (the figures'
caption: the operating point) and OUT/runs/<variant, loss> (links to the sweep's results folders in its cache;
`python3 -m iwarpsim.plot slowdown OUT/runs/*0.1* --out DIR` draws the 0.1 % figure again, labelled by those names,
the workload and the load). 10 ms of flows (94 of them) take about a minute with --jobs 1.

Under loss a connection manager message lost (RoCEv2: a CM MAD; TCP: a SYN; SCTP: an INIT) is sent again only
after its initial timeout (RoCEv2's ResponseTimeout 4.3 s, doc/roce.md), past the 80 ms stop: the flows of that
host pair are then posted and never delivered. They are counted in the table and drawn as "k of n not completed"
in the figure, not left out.
"""
import argparse
import csv
import json
import os
import sys

import yaml

import iwarpsim
from iwarpsim import plot_slowdown

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIO = os.path.join(HERE, "..", "..", "scenarios", "roce-web-search.yaml")
LLPS = ["rocev2", "tcp", "sctp"]
LOSSES = [0, 0.001]
RN = "rnic.ns3::RoceTransport::"
# RoCEv2 with PFC and go-back-N, as scenarios/roce-web-search.yaml's header runs it.
PFC = {RN + "Recovery": "GoBackN", RN + "MaxInflight": 0, "topology.pfc.xoff": "40KB", "topology.pfc.xon": "20KB"}
# The table's names, and the figures' legend labels (with the loss); SHORT names the links in OUT/runs/, which
# `python3 -m iwarpsim.plot slowdown` takes as labels.
NAMES = {"rocev2": "IRN (RoCEv2, selective repeat, 48 in flight, no PFC)", "pfc": "RoCE+PFC (RoCEv2, go-back-N, PFC)",
         "tcp": "MPA/TCP (DCTCP)", "sctp": "DDP/SCTP"}
SHORT = {"rocev2": "IRN", "pfc": "RoCE+PFC", "tcp": "MPA-TCP", "sctp": "SCTP"}


def loss_text(p):
    return "loss %g %%" % (100 * p)


def counts(out_dir, workload):
    """What the rows of a sweep do not hold: drops by cause, PFC's XOFFs and pauses, connections, failed checks."""
    with open(os.path.join(out_dir, "summary.json")) as f:
        s = json.load(f)
    w = [x for x in s["workloads"] if x["name"] == workload][0]
    with open(os.path.join(out_dir, "queues.csv")) as f:
        q = list(csv.DictReader(f))
    with open(os.path.join(out_dir, "messages.csv")) as f:
        m = [r for r in csv.DictReader(f) if r["workload"] == workload and r["status"] != "delivered"]
    # A flow whose connection never came up has no ideal FCT (doc/metrics.md, messages.csv).
    return {"summary": s, "w": w, "never_up": sum(not r["ideal_fct_ns"] for r in m),
            "stuck": sum(bool(r["ideal_fct_ns"]) and r["status"] == "outstanding" for r in m),
            "unplaced": sum(bool(r["ideal_fct_ns"]) and r["status"] == "outstanding" and not r["first_placed_ns"]
                            for r in m),
            "xoff": sum(int(r["pfc_xoff_sent"] or 0) for r in q),
            "paused_ms": sum(int(r["pfc_paused_ns"] or 0) for r in q) / 1e6,
            "failed": [c for c in s["checks"] if not c["pass"]]}


def decade_cells(w, decades):
    by = {(b["min_octets"], b["max_octets"]): b for b in w["slowdown"]}
    cells = []
    for d in decades:
        b = by.get(d)
        if b is None:
            cells.append("-")
            continue
        cell = "%s/%s" % tuple("-" if b[p] is None else "%.1f" % b[p] for p in ("p50", "p99"))
        if b["not_completed"]:
            cell += " (%d of %d not delivered)" % (b["not_completed"], b["flows"])
        cells.append(cell)
    return cells


ORDER = ["rocev2", "pfc", "tcp", "sctp"]  # the table's and the legend's order


def run_sweeps(a):
    """The two sweeps (llp x loss, then RoCE+PFC x loss), as rows sorted by loss, then variant."""
    common = {"workloads.0.duration": a.duration, "transport.tcp.congestion": "Dctcp"}  # Dctcp: TCP's alone
    # Each sweep starts its own workers (no shared executor): were the library rebuilt between the two, workers
    # started before would run the old one under the new build's cache key.
    df = iwarpsim.sweep(SCENARIO, grid=dict(common, **{"workloads.0.llp": LLPS, "links.loss": LOSSES}),
                        jobs=a.jobs, cache_dir=a.cache_dir, desc="llp x loss")
    df["variant"] = df["workloads.0.llp"]
    pfc = iwarpsim.sweep(SCENARIO, grid=dict(common, **PFC, **{"links.loss": LOSSES}),
                         jobs=a.jobs, cache_dir=a.cache_dir, desc="RoCE+PFC x loss")
    pfc["variant"] = "pfc"
    rows = [r for _, r in df.iterrows()] + [r for _, r in pfc.iterrows()]
    rows.sort(key=lambda r: (r["links.loss"], ORDER.index(r["variant"])))
    return rows


def link_runs(rows, out):
    """OUT/runs/<variant, loss> -> each run's results folder; returns {(variant, loss): (row, counts, link)} and
    the flow-size decades any run has."""
    runs = os.path.join(out, "runs")
    os.makedirs(runs, exist_ok=True)
    results = {}
    decades = set()
    for r in rows:
        c = counts(r["out_dir"], r["workload"])
        decades |= {(b["min_octets"], b["max_octets"]) for b in c["w"]["slowdown"]}
        link = os.path.join(runs, "%s, %s" % (SHORT[r["variant"]], loss_text(r["links.loss"])))
        if os.path.islink(link):
            os.remove(link)
        os.symlink(os.path.abspath(r["out_dir"]), link)
        results[(r["variant"], r["links.loss"])] = (r, c, link)
    return results, sorted(decades)


def print_table(rows, results, decades):
    print("| variant | loss | flows delivered | connections not up | not delivered: on those / outstanding (none placed) / "
          "flushed | resent (timer) "
          "| dropped: queue / link loss | XOFF | ports paused | %s | checks failed | wall |"
          % " | ".join("%s B p50/p99" % plot_slowdown.bucket_label(*d) for d in decades))
    print("|---" * (11 + len(decades)) + "|")
    for r in rows:
        _, c, _ = results[(r["variant"], r["links.loss"])]
        w, s = c["w"], c["summary"]
        m, conn = w["messages"], w["connections"]
        print("| %s | %s | %d/%d | %d of %d | %d / %d (%d) / %d | %d (%d) | %d / %d | %d | %.1f ms | %s | %s | %.1f s |" % (
            NAMES[r["variant"]], loss_text(r["links.loss"]), m["delivered"], m["posted"],
            conn["not_established"], conn["attempted"], c["never_up"], c["stuck"], c["unplaced"], m["flushed"],
            w["retransmissions"]["total"], w["retransmissions"]["rto_expirations"],
            s["drops"]["queue"], s["drops"]["impairment"], c["xoff"], c["paused_ms"],
            " | ".join(decade_cells(w, decades)),
            ", ".join("%s (%s)" % (x["name"], x["subject"]) for x in c["failed"]) or "none",
            s["wall_time_s"]))


def plot_loss(results, loss, out_root, duration):
    """OUT/loss-<p>/slowdown.png, slowdown-fct.png and slowdown.csv for one loss rate; returns their caption."""
    folders = [results[(v, loss)][2] for v in ORDER]
    out = os.path.join(out_root, "loss-%g" % loss)
    sd = plot_slowdown.slowdown_data(folders, "web")
    # The legend: the variant and the loss. slowdown_data's own label (the folder's name, the workload, its LLP and
    # the operating point) is the same for all but the name and too wide for the figure: the caption says the rest.
    label = {results[(v, loss)][2]: "%s, %s" % (NAMES[v], loss_text(loss)) for v in ORDER}
    sd["variant"] = sd["results"].map(label)
    os.makedirs(out, exist_ok=True)
    sd.to_csv(os.path.join(out, "slowdown.csv"), index=False)
    plot_slowdown.slowdown_plot(sd, out)
    plot_slowdown.fct_plot(sd, out)
    _, c, folder = results[("rocev2", loss)]
    s, w = c["summary"], c["w"]
    with open(os.path.join(folder, "scenario.yaml")) as f:  # the scenario as run
        sc = yaml.safe_load(f)
    topo, links = sc["topology"], sc["links"]
    disc = links.get("queue-disc", {"kind": "fifo"})
    where = "%s%s (%d hosts), %s links of %s, %s ports (%s%s)" % (
        topo["kind"], " k = %s" % topo["k"] if "k" in topo else "", len(s["hosts"]), links["rate"], links["delay"],
        links["queue"], disc["kind"].upper(), " %s" % ", ".join("%s %s" % kv for kv in disc.get("red", {}).items()))
    t = w["traffic"]
    return (
        "**%s/slowdown.png** (and slowdown-fct.png, the FCTs in ms): FCT slowdown (FCT / the flow's ideal FCT alone "
        "on the empty network) per flow-size decade, p50 solid and p99 dashed, of %s on the same flows. "
        "scenarios/roce-web-search.yaml: %s, random loss %s on every link; %s flow sizes, Poisson arrivals at load "
        "%g (offered %.2f), flows started for %s (%d flows), stop %g ms, seed %d; "
        "RoCEv2 with DCQCN, TCP with DCTCP. Flows per decade: %s (a p99 over fewer than 100 flows is a maximum). "
        "Each host pair's flows share one connection in order, so a small flow can wait behind a large one. "
        "Percentiles are over the flows delivered: in slowdown.png a decade with flows never delivered says \"k "
        "of n not completed\"; slowdown-fct.png does not (the table the script prints counts them)."
        % (os.path.basename(out), ", ".join(NAMES[v] for v in ORDER), where, loss_text(loss).replace("loss ", ""),
           t["flow_sizes"], t["load"], t["offered_load"], duration, w["messages"]["posted"],
           s["stop_time_s"] * 1e3, s["seed"],
           ", ".join("%s B %d" % (plot_slowdown.bucket_label(b["min_octets"], b["max_octets"]), b["flows"])
                     for b in w["slowdown"])))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="folder for the figures, their caption and the links to the runs")
    ap.add_argument("--jobs", type=int, default=2, help="simulations at a time (default 2)")
    ap.add_argument("--duration", default="10ms", help="how long the hosts start flows (workloads.0.duration)")
    ap.add_argument("--cache-dir", help="the sweep's cache (default: iwarpsim's, ~/.cache/iwarpsim)")
    a = ap.parse_args()
    rows = run_sweeps(a)
    results, decades = link_runs(rows, a.out)
    print_table(rows, results, decades)
    caption = [plot_loss(results, loss, a.out, a.duration) for loss in LOSSES]
    with open(os.path.join(a.out, "caption.md"), "w") as f:
        f.write("\n\n".join(caption) + "\n")
    print()
    print("\n\n".join(caption))


if __name__ == "__main__":
    sys.exit(main())
