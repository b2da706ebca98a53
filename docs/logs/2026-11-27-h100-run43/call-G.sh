#!/bin/bash
# Run 43 call G (H100): call D's first batch came 3-4.8 us after each
# warp's start, behind the L2 prefetches of its first two batches (asked
# before the grid wait) and of its third. `p1`
# (probe-prologue-prefetch-1.patch: the first batch only before the grid
# wait) and `p0` (-0: none) against base, version 17's `_m8_` blocks at
# M = 1, bf16, symmetric and asymmetric, the five shapes, graph-timed; two
# rounds in opposite orders.
cd .carry && for b in base p1 p0; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-G.txt
for b in base p1 p0 p0 p1 base; do
  [ $(( $(date +%s) - START )) -gt 400 ] && { echo "$b not run: time" >> $L/ab-G.log; continue; }
  echo "### $b (at $(( $(date +%s) - START )) s)" >> $L/ab-G.log
  timeout 120 ./qk-$b bench --kernel "int4_linear _m8_ _bf16 v17 1x" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-G.log
  tar czf $OUT/logs-G.tar.gz -C $L .
done
date -u >> $L/device-G.txt
tar czf $OUT/logs-G.tar.gz -C $L .
