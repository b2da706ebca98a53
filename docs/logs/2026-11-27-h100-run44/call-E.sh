#!/bin/bash
# Run 44 call E (H100): what call D's next step could win at most.
# `noscale` (probe-no-scale-E.patch on aca1e14, wrong results): the
# warpgroup-MMA consumers dequantize without the scale multiply (64 FMA2s
# fewer a thread and step: version 23's step loop 372 -> 308
# instructions), against `base` (aca1e14), at M = 16 (v23 unsplit and
# split), 64 (v19) and 1024 (v13); two rounds in opposite orders.
cd .carry && for b in base noscale; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-E.txt
for b in base noscale noscale base; do
  for f in "16x28672x8192 _bf16 v23" "16x11008x4096 _bf16 v23" "16x8192x28672 _bf16 v23" "64x28672x8192 _bf16 v19" "1024x11008x4096 _bf16 v13"; do
    [ $(( $(date +%s) - START )) -gt 400 ] && { echo "$b $f not run: time" >> $L/ab-E.log; continue; }
    echo "### $b $f (at $(( $(date +%s) - START )) s)" >> $L/ab-E.log
    timeout 100 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-E.log
    tar czf $OUT/logs-E.tar.gz -C $L .
  done
done
date -u >> $L/device-E.txt
tar czf $OUT/logs-E.tar.gz -C $L .
