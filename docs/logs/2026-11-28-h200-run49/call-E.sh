#!/bin/bash
# Run 49 call E (H200): quantize from f16/bf16 at 20M elements runs at 88%
# of the copy (call C; target 95%), with twice the fixed cost of f32's
# (16.03 µs for 60 MB against 24.54 for 100 MB). Version 2 loads
# `QUANTIZE_VECTORS` 16-byte vectors a thread, one tile a block: at 4,
# 2441 blocks of 256 threads for 20M f16, 2.3 waves. `qv2` (2 vectors:
# twice the blocks, shorter ones) and `qv8` (8) against HEAD (`base`),
# every type and size of version 2, two rounds in opposite orders; then
# the quantize GPU tests of both variants.
cd .carry && L=/tmp/logs && mkdir -p $L
B="base qv2 qv8"
xz -dc qk.xz > qk-base && for b in qv2 qv8; do xz -dc qk-$b.xz > qk-$b; xz -dc quantize_int8-$b.xz > quantize_int8-$b; chmod +x quantize_int8-$b; done; chmod +x qk-*
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-E.txt
export CUDA_CACHE_MAXSIZE=4294967296
for b in $B; do timeout 100 ./qk-$b bench --kernel "quantize_int8_v2 100K" --json /tmp/w-$b.json --png /tmp/w-$b.png > /tmp/warm-$b.log 2>&1 & done; wait
echo "warm at $(( $(date +%s) - START )) s" | tee -a $L/ab-E.log
for b in base qv2 qv8 qv8 qv2 base; do
  [ $(( $(date +%s) - START )) -gt 150 ] && { echo "$b not run: time" >> $L/ab-E.log; continue; }
  echo "### $b quantize_int8_v2 (at $(( $(date +%s) - START )) s)" >> $L/ab-E.log
  timeout 40 ./qk-$b bench --kernel "quantize_int8_v2" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-E.log
done
tar czf $OUT/logs-E.tar.gz -C $L .
for b in qv2 qv8; do REQUIRE_GPU=1 timeout 80 ./quantize_int8-$b > $L/tests-quantize_int8-$b-E.log 2>&1 & done; wait
for b in qv2 qv8; do echo "$b: $(grep -E 'test result' $L/tests-quantize_int8-$b-E.log)"; done | tee $L/tests-E.log
date -u >> $L/device-E.txt
tar czf $OUT/logs-E.tar.gz -C $L .
