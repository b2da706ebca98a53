#!/bin/bash
# Run 45 call A (H100): the producer-consumer GEMMs (versions 12, 13, 19,
# 22, 23) ask the L2 for their first fill's codes and their rows' group
# constants before the wait for the previous grid
# (first-fill-prefetch-A.patch on 1064f57). `base` is 1064f57, `fill`
# the change; two rounds in opposite orders on the library's picks from
# M = 16 to 1024 (and the other splits the report times with them). Then
# the int4 linear, PTX, raw-launch and graph GPU tests of the change.
cd .carry && rm -rf tests && tar xJf t.tar.xz && for b in base fill; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-A.txt
FILTERS=("16x11008x4096 _bf16 v23" "16x4096x11008 _bf16 v23" "16x28672x8192 _bf16 v23" "16x8192x28672 _bf16 v23"
  "64x4096x4096 _bf16 v19" "64x11008x4096 _bf16 v19" "64x28672x8192 _bf16 v19" "128x4096x4096 _bf16 v19"
  "128x11008x4096 _bf16 v13" "1024x11008x4096 _bf16 v13")
for b in base fill fill base; do
  for f in "${FILTERS[@]}"; do
    [ $(( $(date +%s) - START )) -gt 380 ] && { echo "$b $f not run: time" >> $L/ab-A.log; continue; }
    echo "### $b $f (at $(( $(date +%s) - START )) s)" >> $L/ab-A.log
    timeout 100 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-A.log
  done
  tar czf $OUT/logs-A.tar.gz -C $L .
done
for t in int4_linear ptx raw_launch graph; do
  [ $(( $(date +%s) - START )) -gt 540 ] && { echo "$t not run: time" | tee -a $L/tests-A.log; continue; }
  REQUIRE_GPU=1 timeout 120 ./tests/$t > $L/tests-$t-A.log 2>&1; echo "$t exit $? at $(( $(date +%s) - START )) s" | tee -a $L/tests-A.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-A.log | tail -3 | tee -a $L/tests-A.log
done
date -u >> $L/device-A.txt
tar czf $OUT/logs-A.tar.gz -C $L .
