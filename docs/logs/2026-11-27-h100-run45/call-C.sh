#!/bin/bash
# Run 45 call C (H100): call B found the first-fill prefetch 0.5-3% faster
# unsplit but 2-17% slower split (and 1% slower on 16x28672x8192, where 20
# multiprocessors are idle). Does asking for fewer steps of the fill help?
# `fill` asks for the ring's whole first fill (8 steps in versions 22 and
# 23, 5 in 19, 4 in 12 and 13; first-fill-prefetch-A.patch), `fill1` for
# its first step, `fill2` for two (the same patch with `S::STAGES` in
# `FirstFill::new` replaced by 1 or 2); `base` 1064f57. Two rounds in
# opposite orders on the library's picks.
cd .carry && for b in base fill fill1 fill2; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-C.txt
FILTERS=("16x11008x4096 _bf16 v23" "16x4096x11008 _bf16 v23" "16x28672x8192 _bf16 v23" "16x8192x28672 _bf16 v23"
  "64x4096x4096 _bf16 v19" "128x11008x4096 _bf16 v13" "1024x11008x4096 _bf16 v13")
for b in base fill fill1 fill2 fill2 fill1 fill base; do
  for f in "${FILTERS[@]}"; do
    [ $(( $(date +%s) - START )) -gt 560 ] && { echo "$b $f not run: time" >> $L/ab-C.log; continue; }
    echo "### $b $f (at $(( $(date +%s) - START )) s)" >> $L/ab-C.log
    timeout 100 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-C.log
  done
  tar czf $OUT/logs-C.tar.gz -C $L .
done
date -u >> $L/device-C.txt
tar czf $OUT/logs-C.tar.gz -C $L .
