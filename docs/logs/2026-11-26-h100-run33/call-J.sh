#!/bin/bash
# Run 33 call J (cf112b9): versions 17 and 23 at 16 x 8192 x 28672 (past
# V23_MAX_K, where the library takes version 17), bf16 sym and asym, two
# rounds interleaved.
cd .carry && ( [ -f qk-new ] || xz -dk qk-new.xz ) && chmod +x qk-new && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-J.txt
for round in 1 2; do for v in v17 v23; do
  echo "### round $round $v" >> $L/ab-J.log
  timeout 100 ./qk-new bench --kernel "int4_linear 16x8192x28672 _bf16 $v" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-J.log
done; done
date -u >> $L/device-J.txt
