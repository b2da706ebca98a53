#!/bin/bash
# Run 50 call G (H200), the last device minutes: the `_m16_` entry points
# with each part of the prefetch change alone, against HEAD (`final`,
# 0534357, whose `_m16_` PTX is 4a25e5d's): `m16p1` (one batch ahead,
# m16-prefetch-1-not-run.patch) and `m16once` (each line once,
# m16-once-a-line-not-run.patch). Version 17's `_m16_` blocks at 16 x
# 4096 x 4096 (the library's pick there) and 16 x 11008 x 4096, three
# rounds in alternating orders; then each variant's v17 block test and
# the every-version reference test.
# Predicted before the call: call D put 1dea1c8 (both parts) 10% slower at
# 16 x 4096 x 4096; if one part alone is what cost, the other is within 1%
# of final or faster. No figure on which.
cd .carry && L=/tmp/logs && mkdir -p $L
START=$(date +%s); export START
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-G.txt
for b in m16p1 m16once; do xz -dc int4_linear-$b.xz > int4_linear-$b && chmod +x int4_linear-$b; done
export CUDA_CACHE_MAXSIZE=4294967296
./device-ab.sh $L/ab-G.log 100 3 "int4_linear _bf16 v17 16x4096x4096 _m16_" final m16p1 m16once
./device-ab.sh $L/ab-G.log 110 2 "int4_linear _bf16 v17 16x11008x4096 _m16_" final m16p1 m16once
for b in m16p1 m16once; do for t in v17_every_block_shape matches_reference_every_group_mode_and_batch; do
  REQUIRE_GPU=1 timeout 40 ./int4_linear-$b --exact gpu::$t > /tmp/t.log 2>&1; echo "$b $t exit $?: $(grep 'test result' /tmp/t.log)" | tee -a $L/device-G.txt
done; done
date -u >> $L/device-G.txt
tar czf $OUT/logs-G.tar.gz -C $L .
