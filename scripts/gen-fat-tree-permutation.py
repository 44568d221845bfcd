#!/usr/bin/python3
"""Print the `workloads:` list of a fat-tree permutation scenario, one line per host.

Host h(i) of a k-ary fat-tree (k^3/4 hosts) sends to h((i + hosts/2) mod hosts), so every flow
crosses the core. Every `--sockets-every`-th host (h(n-1), h(2n-1), ...) runs the ordinary-sockets
baseline (sockets-stream); the others run RDMA Write streams over the scenario's LLP.
scenarios/fat-tree-k16.yaml's list is this script's output for --k 16 (the defaults).
"""
import argparse
import sys


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--k", type=int, default=16, help="fat-tree arity (even, >= 2)")
    p.add_argument("--sockets-every", type=int, default=8,
                   help="every n-th host runs sockets-stream; 0: none")
    p.add_argument("--size", default="64KiB", help="message (RDMA) or write (sockets) size")
    p.add_argument("--outstanding", type=int, default=4, help="RDMA Writes in flight per stream")
    p.add_argument("--duration", default="10ms", help="each stream's duration")
    a = p.parse_args(argv)
    if a.k < 2 or a.k % 2:
        p.error("--k must be even and at least 2")
    if a.sockets_every < 0 or a.outstanding < 1:
        p.error("--sockets-every must be >= 0 and --outstanding >= 1")
    hosts = a.k ** 3 // 4
    print("workloads:")
    for i in range(hosts):
        j = (i + hosts // 2) % hosts
        head = f"  - {{name: h{i}-h{j}, "
        if a.sockets_every and (i + 1) % a.sockets_every == 0:
            print(head + f"kind: sockets-stream, from: h{i}, to: h{j}, size: {a.size}, duration: {a.duration}}}")
        else:
            print(head + f"kind: stream, from: h{i}, to: h{j}, op: write, size: {a.size}, "
                  f"outstanding: {a.outstanding}, duration: {a.duration}}}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
