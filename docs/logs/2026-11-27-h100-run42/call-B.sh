#!/bin/bash
# Run 42 call B: version 17's `_w{w}_` entry points on sm_90a with each
# warp's whole batches of codes fed through a ring of shared-memory slots
# by bulk copies (`cp.async.bulk`, one a row tile and batch, issued by lane
# 0, tracked by an mbarrier a slot; `code-ring.patch`), RING_BATCHES 3, 4
# and 6 (2, 3 and 5 batches ahead), against the shipped build (base,
# 22c5ad5). First the int4 linear GPU tests of the ring-4 build; then
# version 17's `_m8_` blocks at M = 1 on the five shapes, bf16, both modes.
cd .carry && for b in base ring3 ring4 ring6; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && xz -dc int4_linear-ring4.xz > int4_linear-ring4 && chmod +x int4_linear-ring4 && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-B.txt
REQUIRE_GPU=1 timeout 200 ./int4_linear-ring4 > $L/tests-int4_linear-ring4-B.log 2>&1; echo "int4_linear (ring4) exit $? at $(( $(date +%s) - START )) s" | tee -a $L/ab-B.log
grep -E "FAILED|failed|panicked|test result" $L/tests-int4_linear-ring4-B.log | tail -5 | tee -a $L/ab-B.log
unset REQUIRE_GPU
ab() {
  for b in $2; do
    [ $(( $(date +%s) - START )) -gt $1 ] && { echo "$b not run: time" >> $L/ab-B.log; continue; }
    echo "### $b (at $(( $(date +%s) - START )) s)" >> $L/ab-B.log
    timeout 150 ./qk-$b bench --kernel "int4_linear _m8_ _bf16 v17 1x" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-B.log
    tar czf $OUT/logs-B.tar.gz -C $L .
  done
}
ab 420 "ring4 base ring3 ring6"
ab 540 "ring6 ring3 base ring4"
date -u >> $L/device-B.txt
tar czf $OUT/logs-B.tar.gz -C $L .
