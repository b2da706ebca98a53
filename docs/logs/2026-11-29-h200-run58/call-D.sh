#!/bin/bash
# Run 58 call D (H200): HEAD 27e0d9e (call C's kernels, byte-identical
# PTX; the planner's version 12; the raw-launch test's expectation of
# version 13's packed constants at G = 128).
# 1. The int4_linear, raw_launch, graph, int4_weights and ptx test binaries.
# 2. memcheck, racecheck and synccheck of the 128-row tile tests: version
#    13's `_g128_` entry points with the padding block's fix (call B ran
#    them before it), version 12's.
# Predicted: every test passes, every sanitizer run clean.
cd .carry && tar xJf t.tar.xz
L=$OUT && mkdir -p $L
START=$(date +%s); export START
el() { echo $(( $(date +%s) - START )); }
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-D.txt
export REQUIRE_GPU=1
for t in int4_linear raw_launch graph int4_weights ptx; do
    timeout 120 tests/$t > $L/tests-$t.log 2>&1
    echo "$t exit $? at $(el) s: $(grep -E 'test result' $L/tests-$t.log)" | tee -a $L/device-D.txt
done
for run in memcheck:hundred_twenty_eight_row_tile_ragged racecheck:hundred_twenty_eight_row_tile_ragged \
    synccheck:hundred_twenty_eight_row_tile_ragged memcheck:unclustered_hundred_twenty_eight_row_tile_ragged \
    synccheck:unclustered_hundred_twenty_eight_row_tile_ragged racecheck:unclustered_hundred_twenty_eight_row_tile_ragged; do
    tool=${run%%:*} test=${run#*:}
    left=$(( 500 - $(el) )); [ $left -lt 30 ] && { echo "$run skipped" | tee -a $L/device-D.txt; continue; }
    log=$L/sanitizer-$tool-$test.log
    timeout $left compute-sanitizer --tool $tool tests/int4_linear --exact gpu::$test > $log 2>&1
    echo "$tool $test exit $? at $(el) s: $(grep -E 'SUMMARY|test result' $log | tr '\n' ' ')" | tee -a $L/device-D.txt
done
cd $L && tar cJf logs-D.tar.xz tests-*.log sanitizer-*.log && rm tests-*.log sanitizer-*.log
date -u >> $L/device-D.txt
