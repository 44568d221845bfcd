#!/usr/bin/env bash
# Benchmarks: print side-by-side figures measured in one run (never timed assertions).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
"$BUILD_DIR/iwarp-bench-protocol-core" "$@"
# Alternating pairs of 200 MB runs: the median ratio is robust to a busy stretch of the machine. Then
# the same pair on the scenario runner's host queues before queue discs and with its default ones
# (3 pairs each), and the three setups' median ratios side by side: what the queue discs cost; and
# (a) on `current` hosts against (a) without a host model (3 pairs): what charging the host costs (issue 27).
"$BUILD_DIR/iwarp-bench-mpa-tcp" --repeat=5 --queueRepeat=3
# The same pair at the module's picoseconds against ns-3's nanoseconds, one process each (issue 27).
BUILD_DIR="$BUILD_DIR" /usr/bin/python3 bench/resolution-bench.py --pairs 3
# The SCTP model against ns-3's TCP, and RDMA Writes over SCTP against over MPA/TCP, likewise in pairs.
"$BUILD_DIR/iwarp-bench-sctp" --repeat=3
# RoCEv2 against SCTP and MPA/TCP: the 200 MB pair (3 pairs each) and the k = 8 fat-tree permutation (issue 31).
"$BUILD_DIR/iwarp-bench-roce" --repeat=3
# The k = 8 fat-tree: a permutation of RDMA Write streams against the sockets baseline (issue 4).
"$BUILD_DIR/iwarp-bench-fat-tree"
# The k = 8 fat-tree at 50 % web-search load for 20 ms beside a permutation of streams (issue 28).
"$BUILD_DIR/iwarp-bench-traffic"
# Scaling (issue 16): the fat-tree permutation at k = 4..16 (MPA/TCP, SCTP, sockets), all-to-all at k = 8,
# and the heap of 1,000 and 10,000 idle QPs against idle sockets; about 4 minutes (doc/performance.md).
"$BUILD_DIR/iwarp-bench-scaling"
PYTHONPATH="$BUILD_DIR/python" /usr/bin/python3 bench/sweep-bench.py  # iwarpsim.sweep: jobs=2 against jobs=1 (issue 16)
