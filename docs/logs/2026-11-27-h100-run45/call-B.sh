#!/bin/bash
# Run 45 call B (H100): the producer-consumer GEMMs (versions 12, 13, 19,
# 22, 23) ask the L2 for their first fill's codes and their rows' group
# constants before the wait for the previous grid
# (first-fill-prefetch-A.patch on 1064f57). `base` is 1064f57, `fill`
# the change; two rounds in opposite orders on the library's picks from
# M = 16 to 1024 (and the other splits the report times with them).
# Call A's benchmark part did not run (the change was staged as
# qk-new.xz, not qk-fill.xz); its tests did.
cd .carry && rm -rf tests && tar xJf t.tar.xz && for b in base fill; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-B.txt
FILTERS=("16x11008x4096 _bf16 v23" "16x4096x11008 _bf16 v23" "16x28672x8192 _bf16 v23" "16x8192x28672 _bf16 v23"
  "64x4096x4096 _bf16 v19" "64x11008x4096 _bf16 v19" "64x28672x8192 _bf16 v19" "128x4096x4096 _bf16 v19"
  "128x11008x4096 _bf16 v13" "1024x11008x4096 _bf16 v13")
for b in base fill fill base; do
  for f in "${FILTERS[@]}"; do
    [ $(( $(date +%s) - START )) -gt 540 ] && { echo "$b $f not run: time" >> $L/ab-B.log; continue; }
    echo "### $b $f (at $(( $(date +%s) - START )) s)" >> $L/ab-B.log
    timeout 100 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-B.log
  done
  tar czf $OUT/logs-B.tar.gz -C $L .
done
date -u >> $L/device-B.txt
tar czf $OUT/logs-B.tar.gz -C $L .
