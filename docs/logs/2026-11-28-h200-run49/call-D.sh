#!/bin/bash
# Run 49 call D (H200): the library's decode block (version 17's groups
# and warps, `v17_block`) was chosen on the H100. Every block of version
# 17 at M = 1 on the five shapes, and at M = 16 on 4096 x 4096 (where the
# library picks version 17), bf16, both modes, on HEAD: is another block
# faster on the H200?
cd .carry && L=/tmp/logs && mkdir -p $L && xz -dc qk.xz > qk-base && chmod +x qk-base
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-D.txt
for c in 1x4096x4096 1x11008x4096 1x4096x11008 1x28672x8192 1x8192x28672 16x4096x4096; do
  [ $(( $(date +%s) - START )) -gt 200 ] && { echo "$c not run: time" >> $L/sweep-D.log; continue; }
  echo "### base $c (at $(( $(date +%s) - START )) s)" >> $L/sweep-D.log
  timeout 90 ./qk-base bench --sweep --kernel "int4_linear $c _bf16 v17" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/sweep-D.log
  tar czf $OUT/logs-D.tar.gz -C $L .
done
date -u >> $L/device-D.txt
tar czf $OUT/logs-D.tar.gz -C $L .
