#!/bin/bash
# Run 33 call E (on call D's machine and build): versions 23 (M = 16), 19
# (64) and 13 (128) of f1a262e (qk-base) and of call D's build (qk-new),
# bf16 (the report has zero points at M = 1 and 16 only), and version 17
# at 16 x 8192 x 28672 from call D's build. One round.
cd .carry && ( [ -d tests ] || tar xJf t.tar.xz ) && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-E.txt
for s in "16x28672x8192 _bf16 v23" "16x8192x28672 _bf16 v23" "16x11008x4096 _bf16 v23" "16x4096x4096 _bf16 v23" "64x8192x28672 _bf16 v19" "128x8192x28672 _bf16 v13"; do for b in base new; do
  echo "### $b $s" >> $L/ab-E.log
  timeout 100 ./qk-$b bench --kernel "int4_linear $s" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-E.log
done; done
echo "### new v17" >> $L/ab-E.log
timeout 60 ./qk-new bench --kernel "int4_linear 16x8192x28672 _bf16 v17" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-E.log
date -u >> $L/device-E.txt
