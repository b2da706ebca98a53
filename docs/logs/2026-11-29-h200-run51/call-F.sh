#!/bin/bash
# Run 51 call F (H200). Call C: the paired constants at M = 1 were 1.4%
# and 1.9% faster where a group has one or two warps (11008 x 4096,
# 28672 x 8192: the library's blocks there) and slower with four or
# eight. `w12` (`paired-constants-w12.patch`): the pairs only in the
# `_m8_w1_` and `_m8_w2_` G = 128 entry points (their PTX alone changes).
# Predicted before the call: w12 1-2% faster than base at 11008 x 4096
# and 28672 x 8192, the other three shapes within 0.5% (their blocks'
# PTX unchanged). Then w12's int4_linear GPU tests and memcheck of
# v17_every_block_shape.
cd .carry && L=/tmp/logs && mkdir -p $L
START=$(date +%s); export START
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-F.txt
xz -dc int4_linear-w12.xz > int4_linear-w12 && chmod +x int4_linear-w12
export CUDA_CACHE_MAXSIZE=4294967296
REQUIRE_GPU=1 timeout 150 ./int4_linear-w12 --exact gpu::empty_k_gives_bias > /tmp/warm-tests.log 2>&1 &
./device-ab.sh $L/ab-F.log 150 3 "int4_linear _m8_ _bf16 v17 1x" base w12
wait
REQUIRE_GPU=1 timeout 80 ./int4_linear-w12 > $L/tests-int4_linear-w12-F.log 2>&1; echo "w12 tests exit $? at $(( $(date +%s) - START )) s: $(grep 'test result' $L/tests-int4_linear-w12-F.log)" | tee -a $L/device-F.txt
REQUIRE_GPU=1 timeout 30 compute-sanitizer --tool memcheck ./int4_linear-w12 --exact gpu::v17_every_block_shape > $L/sanitizer-memcheck-v17_every_block_shape-w12-F.log 2>&1
echo "memcheck gpu::v17_every_block_shape (w12) exit $? at $(( $(date +%s) - START )) s: $(grep -E 'SUMMARY|test result' $L/sanitizer-memcheck-v17_every_block_shape-w12-F.log | tr '\n' ' ')" | tee -a $L/device-F.txt
date -u >> $L/device-F.txt
tar czf $OUT/logs-F.tar.gz -C $L .
