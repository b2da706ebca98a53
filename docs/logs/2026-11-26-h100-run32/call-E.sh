#!/bin/bash
# Run 32 call E: does version 23's step depend on how its codes are read?
# Three report binaries: qk-base (5625d2f's code), and the probe
# (probe-code-box-steps-E.patch, wrong results) whose TMA box takes 2
# (qk-p2) or 4 (qk-p4) steps of half or a quarter of the bands, so that
# each band's copy is one 2 or 4 KB run in place of 1 KB (the same bytes
# over 2 or 4 steps). Version 23 at M = 16 on three shapes, bf16 sym, two
# rounds interleaved.
cd .carry && ( [ -f qk-base ] || tar xJf q.tar.xz ) && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-E.txt
for round in 1 2; do for s in 28672x8192 8192x28672 4096x11008; do for b in base p2 p4; do
  echo "### round $round $b" >> $L/ab-E.log
  timeout 60 ./qk-$b bench --kernel "int4_linear 16x$s _bf16 v23 sym" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-E.log
done; done; done
date -u >> $L/device-E.txt
