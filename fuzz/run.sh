#!/usr/bin/env bash
# Runs the libFuzzer targets of build-san/ (doc/fuzzing.md); `make fuzz` and `make fuzz-smoke` call it.
#
#   fuzz/run.sh [-s SECONDS] [-b BUILD_DIR] [-j JOBS] [TARGET...]
#                                        default: every target, 300 s each, one at a time, build-san
#   FUZZ_SEED=N fuzz/run.sh ...                              libFuzzer's -seed=N for every target (the CI smoke)
#
# For each target: first every committed reproducer of fuzz/regressions/<target>/ must run clean; then the
# target fuzzes for SECONDS on a scratch copy of fuzz/corpus/<target>/ (the committed corpus does not churn),
# with fuzz/dict/<target>.dict when there is one. Prints one table row per target (executions from
# libFuzzer's stat::number_of_executed_units) and exits 1 if any target found anything, naming the crash
# file (BUILD_DIR/fuzz-findings/) and the log (BUILD_DIR/fuzz-logs/).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

seconds=300
build=build-san
parallel=1
while getopts "s:b:j:" opt; do
    case "${opt}" in
    s) seconds="${OPTARG}" ;;
    b) build="${OPTARG}" ;;
    j) parallel="${OPTARG}" ;;
    *) echo "usage: fuzz/run.sh [-s SECONDS] [-b BUILD_DIR] [-j JOBS] [TARGET...]" >&2; exit 2 ;;
    esac
done
if ! [[ "${parallel}" =~ ^[1-9][0-9]*$ ]]; then
    echo "fuzz/run.sh: -j takes a whole number of targets to run at once, got '${parallel}'" >&2
    exit 2
fi
shift $((OPTIND - 1))
if [ "$#" -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < "${build}/fuzz/targets.txt"
fi

findings="${build}/fuzz-findings"
logs="${build}/fuzz-logs"
mkdir -p "${findings}" "${logs}"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/iwarp-fuzz-corpus.XXXXXX")"
trap 'rm -rf "${scratch}"' EXIT

symbolizer="$(command -v llvm-symbolizer || ls /usr/lib/llvm-*/bin/llvm-symbolizer 2>/dev/null | tail -n1 || true)"
export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-${symbolizer}}"
# Leaks are findings too (ns-3's own allocations do not trip LSan; checked with `make test-asan`).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

# fuzz_target T: replays T's committed reproducers, then fuzzes it; writes its table row to
# ${logs}/T.row and, on a finding, the line that says what and how to reproduce to ${logs}/T.failed.
fuzz_target() {
    local t="$1"
    local bin="${build}/fuzz/${t}"
    local log="${logs}/${t}.log"
    : > "${log}"
    rm -f "${logs}/${t}.row" "${logs}/${t}.failed"

    # Committed reproducers: each must run clean now.
    if [ -d "fuzz/regressions/${t}" ] && [ -n "$(ls -A "fuzz/regressions/${t}")" ]; then
        local r
        for r in "fuzz/regressions/${t}"/*; do
            if ! "${bin}" "${r}" >> "${log}" 2>&1; then
                echo "${t}: the committed reproducer ${r} still fails (log ${log})" > "${logs}/${t}.failed"
                printf '%-20s %8s %14s %10s  %s\n' "${t}" "-" "-" "-" "regression ${r##*/} fails" > "${logs}/${t}.row"
                return
            fi
        done
    fi

    local corpus="${scratch}/${t}"
    mkdir -p "${corpus}"
    cp -r "fuzz/corpus/${t}/." "${corpus}/" 2>/dev/null || true
    local args=(-max_total_time="${seconds}" -print_final_stats=1 -timeout=30 -rss_limit_mb=4096
                -artifact_prefix="${findings}/${t}-")
    # FUZZ_SEED fixes libFuzzer's random seed (the CI smoke sets it, so that a red run can be
    # replayed with the same seed); unset, each run explores afresh.
    if [ -n "${FUZZ_SEED:-}" ]; then
        args+=(-seed="${FUZZ_SEED}")
    fi
    if [ -f "fuzz/dict/${t}.dict" ]; then
        args+=(-dict="fuzz/dict/${t}.dict")
    fi
    local start rc took execs result artifact
    start=$(date +%s)
    "${bin}" "${args[@]}" "${corpus}" >> "${log}" 2>&1
    rc=$?
    took=$(( $(date +%s) - start ))
    execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "${log}" | tail -n1)"
    execs="${execs:-0}"
    if [ "${rc}" -eq 0 ]; then
        result="ok"
    else
        artifact="$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "${log}" | tail -n1)"
        result="FINDING ${artifact:-(exit ${rc}, no crash file)}"
        echo "${t}: $(grep -m1 -E 'ERROR: |fuzz invariant violated|aborted\.|runtime error' "${log}") -> ${artifact:-no crash file}; reproduce: ${bin} ${artifact:-} (log ${log})" > "${logs}/${t}.failed"
    fi
    printf '%-20s %8s %14s %10s  %s\n' "${t}" "${took}" "${execs}" "$(( execs / (took > 0 ? took : 1) ))" "${result}" \
        > "${logs}/${t}.row"
    echo "fuzz: $(cat "${logs}/${t}.row")"
}

for t in "${targets[@]}"; do
    if [ ! -x "${build}/fuzz/${t}" ]; then
        echo "fuzz/run.sh: no target ${build}/fuzz/${t} (build it: make build-fuzz)" >&2
        exit 2
    fi
done
# At most `parallel` targets at once: each fuzzes for its own SECONDS of wall time whatever runs beside it.
running=0
for t in "${targets[@]}"; do
    if [ "${running}" -ge "${parallel}" ]; then
        wait -n || true
        running=$(( running - 1 ))
    fi
    fuzz_target "${t}" &
    running=$(( running + 1 ))
done
wait

failed=()
rows=()
for t in "${targets[@]}"; do
    rows+=("$(cat "${logs}/${t}.row" 2>/dev/null || printf '%-20s %8s %14s %10s  %s' "${t}" "-" "-" "-" "no result")")
    if [ -f "${logs}/${t}.failed" ]; then
        failed+=("$(cat "${logs}/${t}.failed")")
    elif [ ! -f "${logs}/${t}.row" ]; then
        failed+=("${t}: fuzz/run.sh recorded no result (log ${logs}/${t}.log)")
    fi
done

echo
printf '%-20s %8s %14s %10s  %s\n' "target" "seconds" "executions" "exec/s" "result"
printf '%s\n' "${rows[@]}"
if [ "${#failed[@]}" -gt 0 ]; then
    echo
    echo "fuzz: ${#failed[@]} target(s) found something:" >&2
    printf '  %s\n' "${failed[@]}" >&2
fi
# The closing line CI reads: targets without a finding, targets with one.
echo "fuzz: $(( ${#targets[@]} - ${#failed[@]} )) passed, ${#failed[@]} failed"
[ "${#failed[@]}" -eq 0 ]
