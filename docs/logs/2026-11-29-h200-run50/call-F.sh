#!/bin/bash
# Run 50 call F (H200): 0534357 (`final`: run 50's prefetch change in the
# `_m8_` entry points only; the `_m16_` ones back to 4a25e5d's PTX, byte
# for byte) against 1dea1c8 (`head`, the change everywhere), after call D
# found version 17's `_m16_` block at 16 x 4096 x 4096 10% slower with it.
# Two rounds each in alternating orders: version 17 at M = 1 (`_m8_`,
# the same PTX in both builds) and at 16 x 4096 x 4096 (`_m16_`). Then the
# final build's int4_linear GPU tests and memcheck of v17_every_block_shape.
# Predicted before the call: M = 1 equal within 0.5%; at 16 x 4096 x 4096
# final about 8.4 us (run 49) against head's 9.3.
cd .carry && L=/tmp/logs && mkdir -p $L
START=$(date +%s); export START
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-F.txt
xz -dc int4_linear-final.xz > int4_linear-final && chmod +x int4_linear-final
export CUDA_CACHE_MAXSIZE=4294967296
REQUIRE_GPU=1 timeout 150 ./int4_linear-final --exact gpu::empty_k_gives_bias > /tmp/warm-tests.log 2>&1 &
./device-ab.sh $L/ab-F.log 150 2 "int4_linear _bf16 v17 16x4096x4096 _m16_" final head
./device-ab.sh $L/ab-F.log 170 2 "int4_linear _m8_ _bf16 v17 1x" final head
wait
REQUIRE_GPU=1 timeout 100 ./int4_linear-final > $L/tests-int4_linear-final-F.log 2>&1; echo "final tests exit $? at $(( $(date +%s) - START )) s: $(grep 'test result' $L/tests-int4_linear-final-F.log)" | tee -a $L/device-F.txt
REQUIRE_GPU=1 timeout 60 compute-sanitizer --tool memcheck ./int4_linear-final --exact gpu::v17_every_block_shape > $L/sanitizer-memcheck-v17_every_block_shape-final-F.log 2>&1; echo "memcheck exit $?: $(grep -E 'SUMMARY|test result' $L/sanitizer-memcheck-v17_every_block_shape-final-F.log | tr '\n' ' ')" | tee -a $L/device-F.txt
date -u >> $L/device-F.txt
tar czf $OUT/logs-F.tar.gz -C $L .
