#!/bin/bash
# Run 55 call D (H200): version 23's new one-version test on HEAD
# (sixteen_row_tile_ragged: unsplit and split 2 and 3 ways, M = 9, 16, 37,
# every group size and mode), plain, then under memcheck, synccheck and
# racecheck (version 23's launches). Predicted: passes, all clean.
cd .carry
L=$OUT && mkdir -p $L
START=$(date +%s)
el() { echo $(( $(date +%s) - START )); }
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-D.txt
T=./int4_linear-base
xz -dc $T.xz > $T && chmod +x $T
export REQUIRE_GPU=1
$T --exact gpu::sixteen_row_tile_ragged > $L/tests-sixteen_row_tile_ragged.log 2>&1
echo "test exit $? at $(el) s: $(grep 'test result' $L/tests-sixteen_row_tile_ragged.log)" | tee -a $L/device-D.txt
for tool in memcheck synccheck racecheck; do
    filter=(); [ $tool = racecheck ] && filter=(--kernel-name kns=int4_linear_v23)
    log=$L/sanitizer-$tool-sixteen_row_tile_ragged.log
    timeout 150 compute-sanitizer --tool $tool "${filter[@]}" $T --exact gpu::sixteen_row_tile_ragged > $log 2>&1
    echo "$tool exit $? at $(el) s: $(grep -E 'SUMMARY|test result|Internal' $log | tr '\n' ' ')" | tee -a $L/device-D.txt
done
date -u >> $L/device-D.txt
