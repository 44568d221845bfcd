#!/usr/bin/env python3
"""What picosecond resolution costs (issue 27): the MPA/TCP pair of iwarp-bench-mpa-tcp (an RDMA Write
stream and a plain TCP BulkSend, 10 Gb/s) at the module's picoseconds against ns-3's default nanoseconds.

A resolution is chosen once per process, so each run is its own process: --pairs pairs, ps and ns
alternating, each moving --bytes octets per side. Printed per run: its wall and CPU time (the child's own
rusage), the simulated events and the goodput of each side; then the ratio ps/ns of each pair and the
median. A measurement to read, not a test: nothing is asserted.

Run from the repository:  /usr/bin/python3 bench/resolution-bench.py [--pairs 3] [--bytes 50000000]
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
ROW = re.compile(r"^\((a|b)\) .*?\s(\d+\.\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+\d+\.\d+\s+\d+\.\d+\s+(\d+)\s")


def run(binary, resolution, octets):
    """One process of the bench at `resolution`: (wall s, cpu s, {side: (events, goodput Gb/s)})."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    out = subprocess.run([binary, "--resolution=" + resolution, "--repeat=1", "--queueRepeat=0",
                          "--latency=0", "--oddPair=0", "--bytes=%d" % octets],
                         check=True, capture_output=True, text=True).stdout
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    sides = {}
    for line in out.splitlines():
        m = ROW.match(line)
        if m:
            sides[m.group(1)] = (int(m.group(6)), float(m.group(5)))
    if set(sides) != {"a", "b"}:
        raise SystemExit("unexpected output of %s:\n%s" % (binary, out))
    return wall, cpu, sides


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--bytes", type=int, default=50_000_000)
    parser.add_argument("--build", default=os.environ.get("BUILD_DIR", os.path.join(ROOT, "build")))
    args = parser.parse_args()
    binary = os.path.join(args.build, "iwarp-bench-mpa-tcp")
    print("== time resolution: ps (the module's) against ns (ns-3's default), MPA/TCP pair, %d octets per side,"
          " %d pairs ==" % (args.bytes, args.pairs))
    print("%-6s %-4s %8s %8s %12s %12s %14s %14s" % ("pair", "res", "wall s", "cpu s", "events (a)", "events (b)",
                                                      "goodput (a)", "goodput (b)"))
    walls, cpus = [], []
    for pair in range(1, args.pairs + 1):
        got = {}
        for resolution in ("ps", "ns"):
            got[resolution] = run(binary, resolution, args.bytes)
            wall, cpu, sides = got[resolution]
            print("%-6d %-4s %8.2f %8.2f %12d %12d %11.3f Gb/s %9.3f Gb/s" % (
                pair, resolution, wall, cpu, sides["a"][0], sides["b"][0], sides["a"][1], sides["b"][1]))
        walls.append(got["ps"][0] / got["ns"][0])
        cpus.append(got["ps"][1] / got["ns"][1])
        print("pair %d: wall ps/ns %.3f, cpu ps/ns %.3f" % (pair, walls[-1], cpus[-1]))
    print("wall ratio ps/ns: %.3f (median of %d, min %.3f, max %.3f)" % (
        statistics.median(walls), len(walls), min(walls), max(walls)))
    print("cpu ratio ps/ns: %.3f (median of %d, min %.3f, max %.3f)" % (
        statistics.median(cpus), len(cpus), min(cpus), max(cpus)))


if __name__ == "__main__":
    main()
