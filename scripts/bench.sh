#!/usr/bin/env bash
# Benchmarks: print side-by-side figures measured in one run (never timed assertions).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
"$BUILD_DIR/iwarp-bench-protocol-core" "$@"
# Three alternating pairs of 200 MB runs: the median ratio is robust to a busy stretch of the machine.
"$BUILD_DIR/iwarp-bench-mpa-tcp" --repeat=3
