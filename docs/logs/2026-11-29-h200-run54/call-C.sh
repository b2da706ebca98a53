#!/bin/bash
# Run 54 call C (H200): version 19 with its activations copied by the TMA
# unit (`tx19`, v19-tma-activations.patch on HEAD 4e95df9: producer thread
# 0 copies a stage's activations as two boxes of a tensor map of x, 64
# columns x 64 rows, 128-byte swizzle; the producer threads copy only the
# codes and store the constants). Call B's `noact` probe (no activation
# copies at all) took 10-12% off every M = 64 call of version 19.
# Predicted: 8-11% faster at M = 64 on every shape (the probe less the TMA
# unit's own two copies a step), about as much at M = 128 where version 19
# runs.
# 1. A/B against HEAD (`base`), three rounds, bf16, G = 128: version 19 at
#    M = 64 and 128.
# 2. tx19's int4 linear GPU tests; memcheck, racecheck and synccheck of
#    its ragged tile test (every version, version 19 at m = 17, 64, 130
#    and 257, k of one partial step and of several).
cd .carry
L=/tmp/logs && mkdir -p $L
START=$(date +%s); export START
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-C.txt
for r in 1 2 3; do
    ./device-ab.sh $L/ab-C.log 250 1 "_bf16 v19 64x" base tx19
    ./device-ab.sh $L/ab-C.log 250 1 "_bf16 v19 128x" tx19 base
done
echo "A/B done at $(( $(date +%s) - START )) s" | tee -a $L/device-C.txt
./variant-tests.sh $L/device-C.txt int4_linear tx19 gpu::gemm_tiles_ragged
for tool in racecheck synccheck; do
    timeout 150 compute-sanitizer --tool $tool ./int4_linear-tx19 --exact gpu::gemm_tiles_ragged > $L/sanitizer-$tool-gemm_tiles_ragged-tx19.log 2>&1
    echo "$tool gemm_tiles_ragged (tx19) exit $?: $(grep -E 'SUMMARY|test result' $L/sanitizer-$tool-gemm_tiles_ragged-tx19.log | tr '\n' ' ')" | tee -a $L/device-C.txt
done
date -u >> $L/device-C.txt
tar czf $OUT/logs-C.tar.gz -C $L .
