#!/bin/bash
# Run 41 call B: call A's `ncu` found half the decode GEMV's code loads
# missing the L2 although each was prefetched two batches ahead. The same
# build (2c95ca3's loop) with the prefetch 4 batches ahead (p4), and with
# one `cp.async.bulk.prefetch.L2` a warp and batch (a lane-0 instruction
# for the batch's 2 KB of codes, sm_90) at 2, 4 and 8 batches ahead (b2,
# b4, b8), against the shipped build (base): version 17's library block
# (and half/twice its groups) at M = 1, bf16, both modes, two rounds on
# the three smaller shapes in opposite orders, one on the two largest.
cd .carry && for b in base p4 b2 b4 b8; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-B.txt
unset REQUIRE_GPU
ab() {
  for b in $3; do
    [ $(( $(date +%s) - START )) -gt $2 ] && { echo "$1 $b not run: time" >> $L/ab-B.log; continue; }
    echo "### $b $1" >> $L/ab-B.log
    timeout 60 ./qk-$b bench --kernel "int4_linear $1 _bf16 v17" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-B.log
  done
}
for c in 1x11008x4096 1x4096x11008 1x4096x4096; do ab $c 200 "base p4 b2 b4 b8"; done
for c in 1x11008x4096 1x4096x11008 1x4096x4096; do ab $c 330 "b8 b4 b2 p4 base"; done
for c in 1x28672x8192 1x8192x28672; do ab $c 560 "base b4 b8 p4 b2"; done
date -u >> $L/device-B.txt
tar czf $OUT/logs-B.tar.gz -C $L .
grep -E "###| sym " $L/ab-B.log | sed -E "s/^\[ *[0-9.]* s\] int4_linear_v17_(\S+) v17 (groups [0-9]+) (b[0-9]+) \S+ sym g128: ([0-9.]+) us.*/\1 \2 \3 \4/"
