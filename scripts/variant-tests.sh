#!/usr/bin/env bash
# On a GPU machine, from the folder scripts/stage-variant.sh filled
# (.carry/): the GPU tests of a variant's staged test binary
# (`stage-variant.sh NAME --test T` wrote T-NAME.xz), then each named test
# of it under compute-sanitizer memcheck. Appends a summary line a run to
# SUMMARY and writes each run's output to tests-T-NAME.log and
# sanitizer-memcheck-TEST-NAME.log beside it; the steps every A/B call
# script of runs 50 and 51 wrote out by hand after scripts/device-ab.sh.
# Usage: variant-tests.sh SUMMARY T NAME [TEST]...
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
for test in "$@"; do
    log=$logs/sanitizer-memcheck-${test#gpu::}-$name.log
    timeout 150 compute-sanitizer --tool memcheck "$exe" --exact "$test" >"$log" 2>&1
    echo "memcheck $test ($name) exit $?: $(grep -E 'SUMMARY|test result' "$log" | tr '\n' ' ')" | tee -a "$summary"
done
