#!/bin/bash
# Run 46 call A (H100): the warpgroup-MMA consumers of versions 22 and 23
# (16 activation rows) at G = 128 multiply the exact u - z and scale each
# step's sums in f32 (16 FMAs a step in place of 64 packed multiplies;
# SASS step loop 372 -> 333 instructions). `after` adds a step's sums just
# before the next step's first MMAs, `barrier` right after the next step's
# full-barrier wait; `base` is c653c96. First the int4 linear GPU tests of
# `after`, then two rounds in opposite orders on the library's M = 16
# picks, with versions 19, 12 and 13 as controls (their loops unchanged).
cd .carry && tar xJf t.tar.xz && for b in base after barrier; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-A.txt
REQUIRE_GPU=1 timeout 120 ./tests/int4_linear > $L/tests-int4_linear-A.log 2>&1; echo "int4_linear exit $? at $(( $(date +%s) - START )) s" | tee -a $L/tests-A.log
grep -E "FAILED|failed|panicked|test result" $L/tests-int4_linear-A.log | tail -5 | tee -a $L/tests-A.log
tar czf $OUT/logs-A.tar.gz -C $L .
FILTERS=("16x28672x8192 _bf16 v23" "16x8192x28672 _bf16 v23" "16x11008x4096 _bf16 v22" "16x4096x11008 _bf16 v22"
  "16x4096x4096 _bf16 v22" "64x28672x8192 _bf16 v19" "128x11008x4096 _bf16 v12" "128x11008x4096 _bf16 v13" "256x4096x4096 _bf16 v12"
  "256x4096x4096 _bf16 v13")
for b in base after barrier barrier after base; do
  for f in "${FILTERS[@]}"; do
    [ $(( $(date +%s) - START )) -gt 560 ] && { echo "$b $f not run: time" >> $L/ab-A.log; continue; }
    echo "### $b $f (at $(( $(date +%s) - START )) s)" >> $L/ab-A.log
    timeout 100 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-A.log
  done
  tar czf $OUT/logs-A.tar.gz -C $L .
done
date -u >> $L/device-A.txt
tar czf $OUT/logs-A.tar.gz -C $L .
