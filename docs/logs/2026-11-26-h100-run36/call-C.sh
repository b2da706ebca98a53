#!/bin/bash
# Run 36 call C: a second sitting of call A's A/B, on the final build (87ad22e,
# qk-new: the tile order and version 13's windows on short rows) against
# 4ef4656 (qk-base), bf16 version 13 at M = 256 to 8192, and version 23 at
# 16 x 28672 x 8192 (one activation tile: the order changes nothing there).
cd .carry && for b in base new; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-C.txt
for f in "1024x4096x4096 _bf16 v13" "1024x11008x4096 _bf16 v13" "1024x4096x11008 _bf16 v13" "1024x28672x8192 _bf16 v13" "1024x8192x28672 _bf16 v13" "256x28672x8192 _bf16 v13" "8192x28672x8192 _bf16 v13" "8192x11008x4096 _bf16 v13" "16x28672x8192 _bf16 v23"; do for b in base new; do
  echo "### $b $f" >> $L/ab-C.log
  timeout 60 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-C.log
done; date -u >> $L/device-C.txt; done
