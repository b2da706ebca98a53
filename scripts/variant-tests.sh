#!/usr/bin/env bash
# On a GPU machine, from the folder scripts/stage-variant.sh filled
# (.carry/): the GPU tests of a variant's staged test binary
# (`stage-variant.sh NAME --test T` wrote T-NAME.xz), then each named test
# of it under a compute-sanitizer tool: `TOOL:TEST` (memcheck, racecheck,
# synccheck or initcheck), or `TEST` alone for memcheck. Appends a summary
# line a run to SUMMARY and writes each run's output to tests-T-NAME.log
# and sanitizer-TOOL-TEST-NAME.log beside it; the steps every A/B call
# script of runs 50 to 57 wrote out by hand after scripts/device-ab.sh.
# Usage: variant-tests.sh SUMMARY T NAME [[TOOL:]TEST]...
set -uo pipefail
summary=$(realpath -m "$1") binary=$2 name=$3
shift 3
logs=$(dirname "$summary")
cd "$(dirname "$0")"
exe=./$binary-$name
[ -x "$exe" ] || { xz -dc "$exe.xz" >"$exe" && chmod +x "$exe"; } || exit 1
export REQUIRE_GPU=1
log=$logs/tests-$binary-$name.log
timeout 300 "$exe" >"$log" 2>&1
echo "$name $binary tests exit $?: $(grep 'test result' "$log")" | tee -a "$summary"
for run in "$@"; do
    tool=memcheck test=$run
    case $run in *check:*) tool=${run%%:*} test=${run#*:} ;; esac
    log=$logs/sanitizer-$tool-${test#gpu::}-$name.log
    timeout 200 compute-sanitizer --tool "$tool" "$exe" --exact "$test" >"$log" 2>&1
    echo "$tool $test ($name) exit $?: $(grep -E 'SUMMARY|test result' "$log" | tr '\n' ' ')" | tee -a "$summary"
done
