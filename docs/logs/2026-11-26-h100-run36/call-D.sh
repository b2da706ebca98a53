#!/bin/bash
# Run 36 call D: the final build (qk-new, 87ad22e) against 4ef4656 (qk-base)
# where the tile order changes nothing (one activation tile: M up to a
# tile, split or not), to tell the code change from call B's sitting
# (every unchanged version ran 0.5-2.3% slower there than in run 35):
# versions 23, 19 and 13 at the library's M = 16, 64 and 128 shapes, bf16,
# two rounds interleaved.
cd .carry && for b in base new; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-D.txt
for round in 1 2; do for f in "16x11008x4096 _bf16 v23" "16x4096x11008 _bf16 v23" "16x8192x28672 _bf16 v23" "64x4096x11008 _bf16 v19" "64x11008x4096 _bf16 v19" "128x11008x4096 _bf16 v13" "128x8192x28672 _bf16 v13"; do for b in base new; do
  echo "### round $round $b $f" >> $L/ab-D.log
  timeout 60 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-D.log
done; done; date -u >> $L/device-D.txt; done
