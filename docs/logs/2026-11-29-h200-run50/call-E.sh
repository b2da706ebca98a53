#!/bin/bash
# Run 50 call E (H200). Calls B and C: asking the L2 for each code line
# once instead of twice made the decode GEMV faster (kept, 1dea1c8: with
# one batch ahead, 0.6-5.7%), so the number of prefetch requests costs.
# Here the fewest: one bulk prefetch (`cp.async.bulk.prefetch.L2`) a warp,
# row tile and batch, from lane 0, of the batch's 2 KB (its two steps of
# the band are one run of bytes), against HEAD's 16 lane requests
# (`head`, 1dea1c8): `bulk1` one batch ahead (bulk-prefetch.patch),
# `bulk2` two (with prefetch-2.patch). Version 17's `_m8_` blocks at
# M = 1, five shapes, both modes, three rounds in alternating orders.
# (Run 41 on the H100 found a bulk prefetch a warp 4 or 8 batches ahead
# slower; not tried one or two ahead.)
# Predicted before the call: bulk1 0-3% faster than head on the large
# shapes, bulk2 slower than bulk1 (as p2 against p1 in call B). Then
# bulk1's int4_linear GPU tests.
cd .carry && L=/tmp/logs && mkdir -p $L
START=$(date +%s); export START
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-E.txt
xz -dc int4_linear-bulk1.xz > int4_linear-bulk1 && chmod +x int4_linear-bulk1
export CUDA_CACHE_MAXSIZE=4294967296
REQUIRE_GPU=1 timeout 150 ./int4_linear-bulk1 --exact gpu::empty_k_gives_bias > /tmp/warm-tests.log 2>&1 &
./device-ab.sh $L/ab-E.log 200 3 "int4_linear _m8_ _bf16 v17 1x" head bulk1 bulk2
wait
REQUIRE_GPU=1 timeout 120 ./int4_linear-bulk1 > $L/tests-int4_linear-bulk1-E.log 2>&1; echo "bulk1 tests exit $? at $(( $(date +%s) - START )) s: $(grep 'test result' $L/tests-int4_linear-bulk1-E.log)" | tee -a $L/device-E.txt
date -u >> $L/device-E.txt
tar czf $OUT/logs-E.tar.gz -C $L .
