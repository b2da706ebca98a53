#!/bin/bash
# Run 33 call A (probe): what the producers' loads of the group constants
# cost version 23 at M = 16. qk-base is f1a262e; qk-noconst
# (probe-no-constant-loads-A.patch, wrong results) stores fixed constants
# (scale 1, zero point 8) in place of each step's loaded ones: the bound on
# bringing the constants another way. bf16, sym and asym, two rounds.
cd .carry && ( [ -f qk-base ] || tar xJf q.tar.xz ) && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-A.txt
for round in 1 2; do for s in "16x28672x8192 _bf16 v23" "16x8192x28672 _bf16 v23" "16x11008x4096 _bf16 v23" "64x28672x8192 _bf16 v19"; do for b in base noconst; do
  echo "### round $round $b $s" >> $L/ab-A.log
  timeout 90 ./qk-$b bench --kernel "int4_linear $s" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-A.log
done; done; done
date -u >> $L/device-A.txt
