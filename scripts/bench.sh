#!/usr/bin/env bash
# Benchmarks: print side-by-side figures measured in one run (never timed assertions).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
"$BUILD_DIR/iwarp-bench-protocol-core" "$@"
"$BUILD_DIR/iwarp-bench-mpa-tcp"
