#!/bin/bash
# Run 33 call C: why call B's windows slowed version 23 without zero points.
# Three report binaries: qk-base (f1a262e), qk-new (call B's build: windows
# for both modes) and qk-asym (windows only with zero points; symmetric
# layers take the scalar loop, as before). Version 23 at every M = 16
# shape, bf16 sym and asym, two rounds interleaved. (It reached the run's
# 500 s limit during round 2's qk-asym, whose lines are missing.)
cd .carry && ( [ -f qk-base ] || tar xJf q.tar.xz ) && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-C.txt
for round in 1 2; do for b in base new asym; do
  echo "### round $round $b" >> $L/ab-C.log
  timeout 120 ./qk-$b bench --kernel "int4_linear 16x _bf16 v23" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-C.log
done; done
date -u >> $L/device-C.txt
