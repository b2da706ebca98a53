#!/bin/bash
# Run 50 call C (H200). Call B: asking the L2 for each code line once
# (pf1) was 1-4% faster at 4096x4096 and 4096x11008 and 0.2-1.4% slower
# at 11008x4096 and 28672x8192; one batch ahead (p1) 2-5% faster at
# 11008x4096 and 4096x11008, 1.6% slower at 4096x4096; two chains slower.
# Here both (p1pf1) against base, p1 and pf1, three rounds in alternating
# orders, version 17's `_m8_` blocks at M = 1, five shapes, both modes.
# Predicted before the call: p1pf1 at or below base on every shape, 3-5%
# at 4096x11008, within 1% on the two largest. Then p1pf1's int4_linear
# GPU tests and compute-sanitizer memcheck and racecheck of
# v17_every_block_shape on its test binary.
cd .carry && L=/tmp/logs && mkdir -p $L
START=$(date +%s); export START
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-C.txt
xz -dc int4_linear-p1pf1.xz > int4_linear-p1pf1 && chmod +x int4_linear-p1pf1
export CUDA_CACHE_MAXSIZE=4294967296
REQUIRE_GPU=1 timeout 150 ./int4_linear-p1pf1 --exact gpu::empty_k_gives_bias > /tmp/warm-tests.log 2>&1 &
./device-ab.sh $L/ab-C.log 300 3 "int4_linear _m8_ _bf16 v17 1x" base p1pf1 p1 pf1
wait
REQUIRE_GPU=1 timeout 200 ./int4_linear-p1pf1 > $L/tests-int4_linear-p1pf1-C.log 2>&1; echo "p1pf1 tests exit $? at $(( $(date +%s) - START )) s: $(grep 'test result' $L/tests-int4_linear-p1pf1-C.log)" | tee -a $L/sanitizers-C.log
for t in memcheck racecheck; do
  REQUIRE_GPU=1 timeout 120 compute-sanitizer --tool $t ./int4_linear-p1pf1 --exact gpu::v17_every_block_shape > $L/sanitizer-$t-v17_every_block_shape-p1pf1-C.log 2>&1
  echo "$t gpu::v17_every_block_shape (p1pf1) exit $? at $(( $(date +%s) - START )) s: $(grep -E 'SUMMARY|test result' $L/sanitizer-$t-v17_every_block_shape-p1pf1-C.log | tr '\n' ' ')" | tee -a $L/sanitizers-C.log
done
date -u >> $L/device-C.txt
tar czf $OUT/logs-C.tar.gz -C $L .
