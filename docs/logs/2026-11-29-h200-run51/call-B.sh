#!/bin/bash
# Run 51 call B (H200). Call A: one sums MMA a step at M = 1 was 1-8%
# slower (2 more loads a batch for 14 fewer MMAs): the loop pays for its
# loads more than for its MMAs. Here the other way: at G = 128 a batch's
# two steps take each row's scales in one 4-byte load and its zero points
# in one byte (`paired-constants.patch`, a probe for even step counts):
# 16 loads a batch in the `_m8_` loop's SASS against 20 (14 against 16
# executed for symmetric weights), 237 instructions against 233.
# Predicted before the call: pairs 0.5-3% faster at M = 1 on every shape
# (asymmetric more than symmetric), and at M = 16 on version 17's `_m16_`
# blocks, which change too, within 1% either way.
# Then pairs' int4_linear GPU tests and memcheck of two tests.
cd .carry && L=/tmp/logs && mkdir -p $L
START=$(date +%s); export START
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-B.txt
xz -dc int4_linear-pairs.xz > int4_linear-pairs && chmod +x int4_linear-pairs
export CUDA_CACHE_MAXSIZE=4294967296
REQUIRE_GPU=1 timeout 150 ./int4_linear-pairs --exact gpu::empty_k_gives_bias > /tmp/warm-tests.log 2>&1 &
./device-ab.sh $L/ab-B.log 260 3 "int4_linear _m8_ _bf16 v17 1x" base pairs
./device-ab.sh $L/ab-B.log 330 2 "int4_linear _m16_ _bf16 v17 16x" base pairs
wait
REQUIRE_GPU=1 timeout 200 ./int4_linear-pairs > $L/tests-int4_linear-pairs-B.log 2>&1; echo "pairs tests exit $? at $(( $(date +%s) - START )) s: $(grep 'test result' $L/tests-int4_linear-pairs-B.log)" | tee -a $L/sanitizers-B.log
for t in v17_every_block_shape matches_reference_every_group_mode_and_batch; do
  REQUIRE_GPU=1 timeout 120 compute-sanitizer --tool memcheck ./int4_linear-pairs --exact gpu::$t > $L/sanitizer-memcheck-$t-pairs-B.log 2>&1
  echo "memcheck gpu::$t (pairs) exit $? at $(( $(date +%s) - START )) s: $(grep -E 'SUMMARY|test result' $L/sanitizer-memcheck-$t-pairs-B.log | tr '\n' ' ')" | tee -a $L/sanitizers-B.log
done
date -u >> $L/device-B.txt
tar czf $OUT/logs-B.tar.gz -C $L .
