#!/bin/bash
# Run 56 call A (H200).
# 1. HEAD's (013f6bd, `base`) int4 GPU tests: run 55's planner change
#    (version 23 for split calls of rows > 8192 at 9-16 rows) had run only
#    in a report; memcheck and synccheck of gemm_tiles_ragged (every plan).
# 2. `packed` (run 55's packed-constants.patch on HEAD): versions 23 and 24
#    at G = 128 read load-time constants, 4 bytes a row and group, from one
#    bulk copy a step by producer thread 0 alone. Its int4 GPU tests, then
#    memcheck, synccheck and racecheck (the version's launches) of the 16-
#    and 32-row tile tests, memcheck of gemm_tiles_ragged.
# 3. A/B packed against base, three rounds, bf16 G = 128, versions 23
#    (16 rows) and 24 (32 rows), both modes. Predicted 5-11% faster on the
#    large shapes (run 55's `solo` probe bound), 2-5% on 4096 x 4096.
cd .carry
L=$OUT && mkdir -p $L
START=$(date +%s); export START
el() { echo $(( $(date +%s) - START )); }
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-A.txt
export REQUIRE_GPU=1 CUDA_CACHE_MAXSIZE=4294967296
./variant-tests.sh $L/device-A.txt int4_linear base gpu::gemm_tiles_ragged
./variant-tests.sh $L/device-A.txt int4_linear packed gpu::gemm_tiles_ragged
echo "tests done at $(el) s" | tee -a $L/device-A.txt
T=./int4_linear-packed
for t in sixteen_row_tile_ragged:v23 thirty_two_row_tile_ragged:v24; do
    test=${t%:*} v=${t#*:}
    for tool in memcheck synccheck racecheck; do
        filter=(); [ $tool = racecheck ] && filter=(--kernel-name kns=int4_linear_$v)
        log=$L/sanitizer-$tool-$test-packed.log
        left=$(( 330 - $(el) )); [ $left -gt 60 ] && left=60
        [ $left -lt 10 ] && { echo "$tool $test skipped" | tee -a $L/device-A.txt; continue; }
        timeout $left compute-sanitizer --tool $tool "${filter[@]}" $T --exact gpu::$test > $log 2>&1
        echo "$tool $test exit $? at $(el) s: $(grep -E 'SUMMARY|test result|Internal' $log | tr '\n' ' ')" | tee -a $L/device-A.txt
    done
done
for r in 1 2 3; do
    ./device-ab.sh $L/ab-A.log 540 1 "_bf16 v23 16x" base packed
    ./device-ab.sh $L/ab-A.log 540 1 "_bf16 v24 32x" packed base
done
echo "A/B done at $(el) s" | tee -a $L/device-A.txt
date -u >> $L/device-A.txt
