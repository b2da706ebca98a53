#!/bin/bash
# Run 56 call B (H200): an L2 prefetch of the packed constants before the
# previous grid ends, on bd7d78e (`base`, the packed constants landed).
# Versions 23 and 24 stopped prefetching constants with them (the rows'
# scales were contiguous; a row's packed words are not).
#   pf1:   prefetch-first-step.patch, the first step's 1 KB (one request,
#          as for the codes).
#   pfall: prefetch-slice.patch, every step of the block's slice, one
#          producer thread each (the L2 holds what the slice reads anyway,
#          as the scales' prefetch did).
# Predicted: pf1 0.5-3% faster on the split shapes (short slices: 4096 x
# 4096, 11008 x 4096, 4096 x 11008), within 0.5% unsplit; pfall as pf1
# or slower where its flood of requests delays the first step's (run 45's
# whole-fill prefetch was 1.2-17% slower).
# 1. A/B, two rounds, bf16 G = 128, versions 23 (16 rows) and 24 (32).
# 2. Each variant: memcheck of gemm_tiles_ragged, the 16-, 32- and 64-row tile
#    tests.
cd .carry
L=$OUT && mkdir -p $L
START=$(date +%s); export START
el() { echo $(( $(date +%s) - START )); }
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-B.txt
export REQUIRE_GPU=1 CUDA_CACHE_MAXSIZE=4294967296
for r in 1 2; do
    ./device-ab.sh $L/ab-B.log 400 1 "_bf16 v23 16x" base pf1 pfall
    ./device-ab.sh $L/ab-B.log 400 1 "_bf16 v24 32x" pfall pf1 base
done
echo "A/B done at $(el) s" | tee -a $L/device-B.txt
for v in pf1 pfall; do
    T=./int4_linear-$v
    xz -dc $T.xz > $T && chmod +x $T
    timeout 60 $T _row_tile_ragged > $L/tests-tiles-$v.log 2>&1
    echo "$v tile tests exit $? at $(el) s: $(grep 'test result' $L/tests-tiles-$v.log)" | tee -a $L/device-B.txt
    log=$L/memcheck-gemm_tiles_ragged-$v.log
    timeout 90 compute-sanitizer --tool memcheck $T --exact gpu::gemm_tiles_ragged > $log 2>&1
    echo "memcheck gemm_tiles_ragged $v exit $? at $(el) s: $(grep -E 'SUMMARY|test result' $log | tr '\n' ' ')" | tee -a $L/device-B.txt
done
date -u >> $L/device-B.txt
