#!/usr/bin/env bash
# On a GPU machine: runs the staged test binaries (REQUIRE_GPU=1), then the
# GPU tests under compute-sanitizer (tests named huge_* are skipped there:
# they would take hours under the sanitizer), then the main job and the
# PyTorch semantics check. Logs go to the folder
# given (default: gpu-logs/), five files in all. STEPS selects steps
# (default: "tests sanitizer report torch").
# Usage: [STEPS=...] .carry/gpu-check.sh [LOG_DIR]   (after scripts/stage-gpu-binaries.sh)
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
# and to finish in seconds with one. Each run is capped all the same.
sanitize() {
    local rc=0 scratch tool test
    scratch=$(mktemp)
    for run in memcheck:add_mul_exp memcheck:quantize_int8 memcheck:int4_linear memcheck:raw_launch \
        racecheck:add_mul_exp racecheck:quantize_int8 racecheck:int4_linear racecheck:raw_launch \
        synccheck:int4_linear synccheck:raw_launch; do
        tool=${run%%:*} test=tests/${run#*:}
        echo "-- $tool $(basename "$test")"
        timeout 240 compute-sanitizer --tool "$tool" --error-exitcode 99 "$test" --skip huge --skip cpu:: --test-threads=1 \
            >"$scratch" 2>&1 || { echo "exit status $? (124: timed out)"; rc=1; }
        grep -E "ERROR SUMMARY|RACECHECK SUMMARY|test result|FAILED|^========= [A-Z]" "$scratch" | head -40
    done
    rm -f "$scratch"
    return $rc
}

{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv; } \
    | tee "$logs/device.txt"
for step in ${STEPS:-tests sanitizer report torch}; do
    echo "== $step $(date -u +%T)"
    case $step in
        tests) run_tests 2>&1 | tee "$logs/tests.log" ;;
        sanitizer) sanitize 2>&1 | tee "$logs/sanitizer.log" ;;
        report) ./quant-kernels 2>&1 | tee "$logs/report.log" ;;
        torch) python3 torch_quantize_semantics.py 2>&1 | tee "$logs/torch.log" ;;
        *) echo "unknown step $step"; false ;;
    esac || failed=1
done
echo "== done $(date -u +%T), failed=$failed"
exit $failed
