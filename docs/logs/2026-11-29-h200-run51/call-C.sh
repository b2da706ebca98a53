#!/bin/bash
# Run 51 call C (H200). Call B: the paired constants (`pairs`) were 2-7%
# slower at M = 1 on four shapes (0.4% faster at 28672 x 8192) and 0.8-7%
# faster on version 17's `_m16_` blocks at M = 16. Its loads of the pairs
# came after the batch's codes and activations in the source, where run
# 40 had found ptxas then issuing a batch's constants after its first
# MMAs. `pairs2` (`paired-constants-first.patch`) loads them first: SASS
# of `_m8_w1_g128_bf16`, 228 instructions a batch (base 233, pairs 237),
# 16 loads (20), 124 registers (128), every load before the first MMA.
# Predicted before the call: pairs2 at or below base at M = 1 on every
# shape, 0.5-3%; at M = 16 as pairs.
# Then pairs2's int4_linear GPU tests and memcheck of two tests.
cd .carry && L=/tmp/logs && mkdir -p $L
START=$(date +%s); export START
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-C.txt
xz -dc int4_linear-pairs2.xz > int4_linear-pairs2 && chmod +x int4_linear-pairs2
export CUDA_CACHE_MAXSIZE=4294967296
REQUIRE_GPU=1 timeout 150 ./int4_linear-pairs2 --exact gpu::empty_k_gives_bias > /tmp/warm-tests.log 2>&1 &
./device-ab.sh $L/ab-C.log 280 3 "int4_linear _m8_ _bf16 v17 1x" base pairs2 pairs
./device-ab.sh $L/ab-C.log 360 2 "int4_linear _m16_ _bf16 v17 16x" base pairs2
wait
REQUIRE_GPU=1 timeout 200 ./int4_linear-pairs2 > $L/tests-int4_linear-pairs2-C.log 2>&1; echo "pairs2 tests exit $? at $(( $(date +%s) - START )) s: $(grep 'test result' $L/tests-int4_linear-pairs2-C.log)" | tee -a $L/sanitizers-C.log
for t in v17_every_block_shape matches_reference_every_group_mode_and_batch; do
  REQUIRE_GPU=1 timeout 120 compute-sanitizer --tool memcheck ./int4_linear-pairs2 --exact gpu::$t > $L/sanitizer-memcheck-$t-pairs2-C.log 2>&1
  echo "memcheck gpu::$t (pairs2) exit $? at $(( $(date +%s) - START )) s: $(grep -E 'SUMMARY|test result' $L/sanitizer-memcheck-$t-pairs2-C.log | tr '\n' ' ')" | tee -a $L/sanitizers-C.log
done
date -u >> $L/device-C.txt
tar czf $OUT/logs-C.tar.gz -C $L .
