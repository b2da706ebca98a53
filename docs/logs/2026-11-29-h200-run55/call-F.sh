#!/bin/bash
# Run 55 call F (H200): the rest of call E's `rows` checks. Its PTX moved
# a little for versions 12, 13, 22 and 23 too (ROWS = 1).
# 1. memcheck, synccheck, racecheck (version 23's launches) of
#    sixteen_row_tile_ragged; memcheck and synccheck of gemm_tiles_ragged
#    (every version).
# 2. A/B of version 13 at M = 128 (the library's pick on the long and
#    large shapes), two rounds. Predicted: within 1% (as version 23).
cd .carry
L=$OUT && mkdir -p $L
START=$(date +%s); export START
el() { echo $(( $(date +%s) - START )); }
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-F.txt
T=./int4_linear-rows
xz -dc $T.xz > $T && chmod +x $T
export REQUIRE_GPU=1 CUDA_CACHE_MAXSIZE=4294967296
for run in memcheck:sixteen_row_tile_ragged synccheck:sixteen_row_tile_ragged racecheck:sixteen_row_tile_ragged \
           memcheck:gemm_tiles_ragged synccheck:gemm_tiles_ragged; do
    tool=${run%:*} test=${run#*:}
    filter=(); [ $tool = racecheck ] && filter=(--kernel-name kns=int4_linear_v23)
    log=$L/sanitizer-$tool-$test-rows.log
    timeout 150 compute-sanitizer --tool $tool "${filter[@]}" $T --exact gpu::$test > $log 2>&1
    echo "$tool $test exit $? at $(el) s: $(grep -E 'SUMMARY|test result|Internal' $log | tr '\n' ' ')" | tee -a $L/device-F.txt
done
for r in 1 2; do
    ./device-ab.sh $L/ab-F.log 330 1 "_bf16 v13 128x" base rows
done
echo "A/B done at $(el) s" | tee -a $L/device-F.txt
date -u >> $L/device-F.txt
