#!/bin/bash
# Run 51 call A (H200). At one activation row (m == 1) the decode GEMV
# (versions 5, 6 and 17, `_m8_` entry points) sums each step's
# activations with one MMA, whose B holds the step's 128 activations 16
# a column (an 8-byte load a lane), then a butterfly over the group's
# lanes, instead of one MMA beside each products MMA (8 a step).
# `one-row-sums.patch`; SASS of `_m8_w1_g128_bf16`: that loop 243
# instructions, 18 MMAs, 22 loads against 233, 32, 20.
# Predicted before the call: onerow faster at M = 1 on every shape, by
# 1-5% (run 49's `nosum` probe, the sums' MMAs taken out with nothing in
# their place, was 3.3-9.7% faster), more on the three smaller shapes.
# Then onerow's int4_linear GPU tests and compute-sanitizer memcheck of
# v17_every_block_shape and matches_reference_every_group_mode_and_batch.
cd .carry && L=/tmp/logs && mkdir -p $L
START=$(date +%s); export START
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-A.txt
xz -dc int4_linear-onerow.xz > int4_linear-onerow && chmod +x int4_linear-onerow
export CUDA_CACHE_MAXSIZE=4294967296
REQUIRE_GPU=1 timeout 150 ./int4_linear-onerow --exact gpu::empty_k_gives_bias > /tmp/warm-tests.log 2>&1 &
./device-ab.sh $L/ab-A.log 280 3 "int4_linear _m8_ _bf16 v17 1x" base onerow
./device-ab.sh $L/ab-A.log 330 1 "int4_linear _m8_ _f16 v17 1x" base onerow
wait
REQUIRE_GPU=1 timeout 200 ./int4_linear-onerow > $L/tests-int4_linear-onerow-A.log 2>&1; echo "onerow tests exit $? at $(( $(date +%s) - START )) s: $(grep 'test result' $L/tests-int4_linear-onerow-A.log)" | tee -a $L/sanitizers-A.log
for t in v17_every_block_shape matches_reference_every_group_mode_and_batch; do
  REQUIRE_GPU=1 timeout 120 compute-sanitizer --tool memcheck ./int4_linear-onerow --exact gpu::$t > $L/sanitizer-memcheck-$t-onerow-A.log 2>&1
  echo "memcheck gpu::$t (onerow) exit $? at $(( $(date +%s) - START )) s: $(grep -E 'SUMMARY|test result' $L/sanitizer-memcheck-$t-onerow-A.log | tr '\n' ' ')" | tee -a $L/sanitizers-A.log
done
date -u >> $L/device-A.txt
tar czf $OUT/logs-A.tar.gz -C $L .
