#!/bin/bash
# Run 53 call A (H200): version 25 (stream-K walk of versions 23, 24 and
# 19's tiles; build `sk`, the working tree on 7452670) against HEAD 7452670
# (`base`), two rounds, bf16, symmetric, G = 128, the report's five shapes:
# every version 25 row (M = 1 to 64), and the pipeline versions at their
# library M (23 at 16, 24 at 32, 19 at 64, 13 at 128 and 1024, split and
# not) in both builds, whose loops the walk's restructuring touched
# (sk's SASS step loops: 308/369/377, as base's). Then sk's int4 linear GPU
# tests and memcheck of the walk's test.
# Predicted before the call: at 28672 x 8192 version 25 takes 55 of 64
# steps a block, so about 42 µs at M = 16 (version 23: 48.4 in run 52),
# 53 at M = 32 (61.4), 64 at M = 64 (73.8); at 8192 x 28672 4-8% under the
# split calls (no reduction); at 4096 x 4096 (4 steps a block, tiles cut 8
# ways) within 10% of the split calls; the pipeline versions within 1% of base.
cd .carry
L=/tmp/logs && mkdir -p $L
START=$(date +%s); export START
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-A.txt
./device-ab.sh $L/ab-A.log 300 2 "_bf16 v25 sym" sk
for f in "v23 b512 16x" "v24 b512 32x" "v19 b512 64x" "v13 b512 128x" "v13 b512 1024x"; do
    ./device-ab.sh $L/ab-A.log 300 2 "_bf16 $f sym" base sk
done
echo "A/B done at $(( $(date +%s) - START )) s" | tee -a $L/device-A.txt
./variant-tests.sh $L/device-A.txt int4_linear sk gpu::stream_k_ragged
date -u >> $L/device-A.txt
tar czf $OUT/logs-A.tar.gz -C $L .
