#!/bin/bash
# Run 56 call C (H200): version 19 on version 23's feed
# (`v19tma`, v19-tensor-map-copies.patch on bd7d78e): its codes by the
# TMA unit too (version 23's map of the codes; the tile has the same 256
# weight rows) and, at G = 128, the packed constants by one bulk copy a
# step from producer thread 0 alone, as versions 23 and 24 since call A.
# Its producer threads copied the codes with cp.async (four a thread a
# step) and converted two rows' constants each.
# Predicted: 4-8% faster at M = 64 on the large shapes (call A's version
# 24 at 32 rows: 2.3-5.3%, with twice the MMAs a step here the producers
# matter less but the constants' share is the same), within 1% or slower
# on 4096 x 4096 and 11008 x 4096 (as version 24).
# 1. A/B against base, three rounds, bf16, every version-19 case.
# 2. v19tma's int4 tests (its plan test fails by design: it expects no
#    map of the codes for version 19); memcheck, synccheck and racecheck
#    (version 19's launches) of sixty_four_row_tile_ragged; memcheck of
#    gemm_tiles_ragged.
cd .carry
L=$OUT && mkdir -p $L
START=$(date +%s); export START
el() { echo $(( $(date +%s) - START )); }
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-C.txt
export REQUIRE_GPU=1 CUDA_CACHE_MAXSIZE=4294967296
for r in 1 2 3; do
    ./device-ab.sh $L/ab-C.log 200 1 "_bf16 v19" base v19tma
done
echo "A/B done at $(el) s" | tee -a $L/device-C.txt
T=./int4_linear-v19tma
xz -dc $T.xz > $T && chmod +x $T
timeout 200 $T > $L/tests-v19tma.log 2>&1
echo "tests exit $? at $(el) s: $(grep -E 'test result|FAILED' $L/tests-v19tma.log | tr '\n' ' ')" | tee -a $L/device-C.txt
for run in memcheck:sixty_four_row_tile_ragged synccheck:sixty_four_row_tile_ragged racecheck:sixty_four_row_tile_ragged \
           memcheck:gemm_tiles_ragged; do
    tool=${run%:*} test=${run#*:}
    filter=(); [ $tool = racecheck ] && filter=(--kernel-name kns=int4_linear_v19)
    log=$L/sanitizer-$tool-$test-v19tma.log
    timeout 80 compute-sanitizer --tool $tool "${filter[@]}" $T --exact gpu::$test > $log 2>&1
    echo "$tool $test exit $? at $(el) s: $(grep -E 'SUMMARY|test result|Internal' $log | tr '\n' ' ')" | tee -a $L/device-C.txt
done
date -u >> $L/device-C.txt
