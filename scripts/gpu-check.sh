#!/usr/bin/env bash
# On a GPU machine, after scripts/stage-gpu-binaries.sh: runs the staged test
# binaries (REQUIRE_GPU=1), the GPU tests under compute-sanitizer (tests
# named huge_* are skipped there: they would take hours under the
# sanitizer), the PyTorch semantics check, the benchmark report, the
# PyTorch peers and their comparison with the report.
#
# Steps (STEPS, default "tests sanitizer torch bench peers compare"; also
# "criterion", the criterion benches, not run by default):
#   tests, sanitizer, torch  -> checks.log
#   bench                    -> bench.log, report.json, report.png
#   peers                    -> bench.log, torch.json        (torch_peers.py)
#   compare                  -> bench.log, compare.md        (compare.py)
#   criterion                -> bench.log
# BENCH_KERNEL limits the report to the cases `--kernel` selects (e.g.
# "int4_linear bf16") and PEERS_ONLY the peers to one group (`--only
# linear`), as the call scripts in docs/logs/ did by hand since run 40.
# Six files at most in LOG_DIR (default gpu-logs/): the GPU machine returns
# at most 8 files from it.
# Usage: [STEPS=...] [SANITIZE_RUNS=...] [BENCH_KERNEL=...] [PEERS_ONLY=...] .carry/gpu-check.sh [LOG_DIR]
set -uo pipefail
cd "$(dirname "$0")"
logs=${1:-gpu-logs}
mkdir -p "$logs"
export REQUIRE_GPU=1
failed=0

run_tests() {
    local rc=0
    for test in tests/*; do "$test" || rc=1; done
    return $rc
}

# Every binary with GPU tests under memcheck and racecheck, and synccheck
# where kernels use barriers. One test thread: racecheck was seen to hang
# (twice, on different binaries) when tests launch from several threads,
# and to finish in seconds with one. Each run is capped at 560 s, under a
# device call's 10 minutes. SANITIZE_RUNS="tool:binary[:args] ..." runs a
# subset; args (comma-separated) go to the test binary, to split a long run
# over device calls: racecheck of the whole int4 binary took about 580 s on
# the H100 before version 12 (run 14), and its part without the ragged
# tests 507 s with version 12 (run 15), so it runs in four parts.
sanitize() {
    local rc=0 scratch tool test args
    scratch=$(mktemp)
    for run in ${SANITIZE_RUNS:-memcheck:add_mul_exp memcheck:quantize_int8 memcheck:int4_linear memcheck:raw_launch \
        memcheck:graph racecheck:add_mul_exp racecheck:quantize_int8 racecheck:int4_linear:gemm_tiles_ragged \
        racecheck:int4_linear:split_k_ragged racecheck:int4_linear:matches_reference \
        racecheck:int4_linear:--skip,ragged,--skip,matches_reference racecheck:raw_launch \
        synccheck:int4_linear synccheck:raw_launch}; do
        IFS=: read -r tool test args <<<"$run"
        test=tests/$test
        echo "-- $tool $(basename "$test") ${args//,/ }"
        # failed_capture provokes driver errors on purpose, which memcheck counts.
        # shellcheck disable=SC2086 # args split into words on purpose
        timeout 560 compute-sanitizer --tool "$tool" --error-exitcode 99 "$test" --skip huge --skip cpu:: \
            --skip failed_capture --test-threads=1 ${args//,/ } \
            >"$scratch" 2>&1 || { echo "exit status $? (124: timed out)"; rc=1; }
        grep -E "ERROR SUMMARY|RACECHECK SUMMARY|test result|FAILED|^========= [A-Z]" "$scratch" | head -40
    done
    rm -f "$scratch"
    return $rc
}

# Runs a staged Python script if it is there; a missing one is skipped, not failed.
staged() {
    local script=$1
    shift
    if [ ! -f "$script" ]; then
        echo "skipped: $script was not staged (scripts/$script absent when staging)"
        return 0
    fi
    python3 "$script" "$@"
}

compare() {
    for json in "$logs/report.json" "$logs/torch.json"; do
        [ -f "$json" ] || { echo "skipped: $json missing (run the bench and peers steps first)"; return 0; }
    done
    staged compare.py "$logs/report.json" "$logs/torch.json" --markdown "$logs/compare.md"
}

{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv; } \
    | tee -a "$logs/checks.log" "$logs/bench.log"
for step in ${STEPS:-tests sanitizer torch bench peers compare}; do
    case $step in
        tests | sanitizer | torch) log=$logs/checks.log ;;
        *) log=$logs/bench.log ;;
    esac
    echo "== $step $(date -u +%T)" | tee -a "$log"
    case $step in
        tests) run_tests ;;
        sanitizer) sanitize ;;
        torch) python3 torch_quantize_semantics.py ;;
        bench | report) ./quant-kernels bench ${BENCH_KERNEL:+--kernel "$BENCH_KERNEL"} --json "$logs/report.json" \
            --png "$logs/report.png" ;;
        peers) staged torch_peers.py ${PEERS_ONLY:+--only "$PEERS_ONLY"} --json "$logs/torch.json" ;;
        compare) compare ;;
        criterion) for bench in benches/*; do "$bench" --bench || exit 1; done ;;
        *) echo "unknown step $step"; false ;;
    esac 2>&1 | tee -a "$log"
    [ "${PIPESTATUS[0]}" -eq 0 ] || failed=1
done
echo "== done $(date -u +%T), failed=$failed" | tee -a "$logs/bench.log"
exit $failed
