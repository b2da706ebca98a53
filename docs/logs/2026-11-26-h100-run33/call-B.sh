#!/bin/bash
# Run 33 call B: the producers read the group constants 8 steps at a time
# (ConstantWindows). The int4 linear GPU tests on the new build (the two
# new tests among them), then versions 23 (every M = 16 shape) and 19
# (64 x 28672 x 8192) of f1a262e (qk-base) and of the new build (qk-new),
# two rounds interleaved, bf16 sym and asym; version 17 at 16 x 8192 x
# 28672 once (unchanged: the pick there).
cd .carry && ( [ -d tests ] || tar xJf t.tar.xz ) && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-B.txt
REQUIRE_GPU=1 timeout 200 ./tests/int4_linear > $L/tests-int4_linear-B.log 2>&1; echo "int4_linear exit $?" | tee -a $L/tests-B.log
grep -E "FAILED|failed|panicked|test result" $L/tests-int4_linear-B.log | tail -5 | tee -a $L/tests-B.log
for round in 1 2; do for s in "16x _bf16 v23" "64x28672x8192 _bf16 v19"; do for b in base new; do
  echo "### round $round $b $s" >> $L/ab-B.log
  timeout 120 ./qk-$b bench --kernel "int4_linear $s" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-B.log
done; done; done
echo "### new v17" >> $L/ab-B.log
timeout 60 ./qk-new bench --kernel "int4_linear 16x8192x28672 _bf16 v17" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-B.log
date -u >> $L/device-B.txt
