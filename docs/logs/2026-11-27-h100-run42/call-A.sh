#!/bin/bash
# Run 42 call A: the decode GEMV (versions 5, 6, 17) with each step's
# activations loaded just before its MMAs instead of with the batch
# (`jit-activations.patch`), so that a batch holds codes, scales and zero
# points only and more steps fit in 128 registers: j2 (2 steps a batch,
# the shipped depth), j3 (3), j4 (4, the L2 prefetch 1 batch ahead: 4
# steps, as shipped), j4p2 (4 steps, prefetch 2 batches ahead), against
# the shipped build (base, 22c5ad5). Version 17's `_m8_` blocks at M = 1
# on the five shapes, bf16, both modes; two rounds in opposite orders.
cd .carry && for b in base j2 j3 j4 j4p2; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-A.txt
unset REQUIRE_GPU
ab() {
  for b in $2; do
    [ $(( $(date +%s) - START )) -gt $1 ] && { echo "$b not run: time" >> $L/ab-A.log; continue; }
    echo "### $b (at $(( $(date +%s) - START )) s)" >> $L/ab-A.log
    timeout 120 ./qk-$b bench --kernel "int4_linear _m8_ _bf16 v17 1x" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-A.log
    tar czf $OUT/logs-A.tar.gz -C $L .
  done
}
ab 300 "base j2 j3 j4 j4p2"
ab 540 "j4p2 j4 j3 j2 base"
date -u >> $L/device-A.txt
tar czf $OUT/logs-A.tar.gz -C $L .
