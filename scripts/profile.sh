#!/usr/bin/env bash
# Where a scenario's CPU time goes: perf record of one iwarp-sim run, then scripts/profile-breakdown.py
# (this project's code against ns-3's, self time).  doc/performance.md, "Where the time goes".
#   scripts/profile.sh SCENARIO.yaml [OUTDIR]      (needs perf: apt-get install linux-perf)
set -euo pipefail
cd "$(dirname "$0")/.."
scenario=${1:?usage: scripts/profile.sh SCENARIO.yaml [OUTDIR]}
out=${2:-$(mktemp -d /tmp/iwarp-profile.XXXXXX)}
mkdir -p "$out"
perf record -F 999 -g -o "$out/run.perf" "${BUILD_DIR:-build}/iwarp-sim" run "$scenario" --no-progress --out "$out/results"
perf report -i "$out/run.perf" --no-children --sort dso,symbol -g none --stdio > "$out/run.txt" 2>/dev/null
/usr/bin/python3 scripts/profile-breakdown.py "$out/run.txt"
echo "profile: $out/run.perf, report: $out/run.txt"
