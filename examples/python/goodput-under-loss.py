"""Goodput under loss (issue 12's study): RDMA Write over MPA/TCP and over SCTP beside the sockets baseline on a
10 Gb/s dumbbell, 4 KiB and 1 MiB messages, 0.1 % and 1 % loss on the bottleneck, through iwarpsim.sweep; prints one
markdown row per workload and run with its goodput, the payload limit of its LLP and the run's failed physics checks.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/goodput-under-loss.py
"""
import iwarpsim
base = {
    "stop": "400ms",
    "topology": {"kind": "dumbbell", "hosts-per-side": 2, "bottleneck": {"rate": "10Gbps", "delay": "10us"}},
    "links": {"rate": "10Gbps", "delay": "1us"},
    "workloads": [
        {"name": "rdma", "kind": "stream", "from": "h0", "to": "h2", "op": "write", "size": "4KiB",
         "duration": "100ms", "outstanding": 8},
        {"name": "sockets", "kind": "sockets-stream", "from": "h1", "to": "h3", "size": "4KiB",
         "duration": "100ms", "start": "200ms"},
    ],
}
if __name__ == "__main__":
    df = iwarpsim.sweep(base, grid={"workloads.0.size": ["4KiB", "1MiB"], "workloads.1.size": ["4KiB", "1MiB"],
                                    "topology.bottleneck.loss": [0.001, 0.01], "workloads.0.llp": ["tcp", "sctp"]},
                        jobs=2, progress=False)
    df = df[df["workloads.0.size"] == df["workloads.1.size"]]
    df = df[~((df["workload"] == "sockets") & (df["workloads.0.llp"] == "sctp"))]
    limits = {("rdma", "tcp"): 10e9 * (1500 - 72) / 1502, ("rdma", "sctp"): 10e9 * (1500 - 62) / 1502,
              ("sockets", "tcp"): 10e9 * (1500 - 52) / 1502}
    print("| workload | LLP | size | loss | delivered msgs | octets delivered | goodput Gb/s | limit Gb/s | delivered x 8 / span Gb/s | retx (fast/timeout) | completed | checks failed |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    import json, os
    for _, r in df.sort_values(["workload", "workloads.0.llp", "workloads.0.size", "topology.bottleneck.loss"]).iterrows():
        llp = "tcp" if r["workload"] == "sockets" else r["workloads.0.llp"]
        s = json.load(open(os.path.join(r["out_dir"], "summary.json")))
        w = [x for x in s["workloads"] if x["name"] == r["workload"]][0]
        span = None
        if w["last_delivery_ns"] and w["first_post_ns"] is not None:
            span = w["octets"]["delivered"] * 8 / ((w["last_delivery_ns"] - w["first_post_ns"]) * 1e-9) / 1e9
        g = r["goodput_bps"]
        print("| %s | %s | %s | %s | %d | %d | %s | %.3f | %s | %d (%d/%d) | %s | %d |" % (
            r["workload"], llp, r["workloads.0.size"], r["topology.bottleneck.loss"], r["messages_delivered"],
            r["octets_delivered"], "%.3f" % (g / 1e9) if g == g and g is not None else "-", limits[(r["workload"], llp)] / 1e9,
            "%.3f" % span if span else "-", r["retransmissions"], r["retransmissions_fast"], r["retransmissions_timeout"],
            r["completed"], r["checks_failed"]))
