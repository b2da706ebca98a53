#!/bin/bash
# Run 40 call C: call B found the whole-step loop 1.8-5.6% faster where
# K is 4096 or 8192 but 2-4% slower at 1x4096x11008 and 1x8192x28672; its
# SASS issued the scale loads after the first MMAs (two round trips a
# batch). This build loads each step's scales and zero points before its
# codes and activations in the source; ptxas then issues all 20 loads of
# an M = 1 batch before any MMA. The int4 linear GPU tests, then the A/B
# against 930cf49 (qk-base), alternating.
cd .carry && rm -rf tests && tar xJf t.tar.xz && xz -dc qk-base.xz > qk-base && xz -dc quant-kernels.xz > qk-new && chmod +x qk-base qk-new && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-C.txt
for t in int4_linear ptx; do
  REQUIRE_GPU=1 timeout 150 ./tests/$t > $L/tests-$t-C.log 2>&1; echo "$t exit $?" | tee -a $L/tests-C.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-C.log | tail -3 | tee -a $L/tests-C.log
done
ab() {
  for b in base new; do
    [ $(( $(date +%s) - START )) -gt $2 ] && return
    echo "### round $3 $b $1" >> $L/ab-C.log
    timeout 60 ./qk-$b bench --kernel "int4_linear $1 _bf16 v17" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" >> $L/ab-C.log
  done
}
for round in 1 2; do
  for c in 1x4096x11008 1x11008x4096 16x4096x4096 16x4096x11008; do ab $c 240 $round; done
done
for c in 1x8192x28672 1x28672x8192; do ab $c 330 1; done
date -u >> $L/device-C.txt
tar czf $OUT/logs-C.tar.gz -C $L .
