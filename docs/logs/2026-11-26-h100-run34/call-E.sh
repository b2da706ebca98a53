#!/bin/bash
# Run 34 call E: version 19 at M = 32 and 64 (bf16 sym, the five shapes)
# of f1a262e (qk-base: before run 33's constant windows) against e2158c3
# (qk-new), two rounds interleaved: call D found it 8-11% slower than run
# 31 at 28672 x 8192 and 4096 x 11008.
cd .carry && for b in base new; do ( [ -f qk-$b ] || xz -dc qk-$b.xz > qk-$b ) && chmod +x qk-$b; done && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-E.txt
for round in 1 2; do for m in 32x 64x; do for b in base new; do
  echo "### round $round $b $m" >> $L/ab-E.log
  timeout 120 ./qk-$b bench --kernel "int4_linear $m _bf16 v19" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-E.log
done; done; done
date -u >> $L/device-E.txt
