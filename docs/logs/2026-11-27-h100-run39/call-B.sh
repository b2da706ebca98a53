#!/bin/bash
# Run 39 call B: A/B of 6170c65's library (quant-kernels: one TileOutput
# parameter; ptxas now spills 80-260 B in the split-K entry points' epilogue,
# none before) against f19f00e's (qk-base), alternating, two rounds, unsplit
# and split-K cases of versions 13, 19 and 23; then racecheck of the ragged
# split-K test with the time left (it ran past its limit in run 38, call B,
# and in call A).
cd .carry && rm -rf tests && tar xJf t.tar.xz && xz -dc qk-base.xz > qk-base && xz -dc quant-kernels.xz > qk-new && chmod +x qk-base qk-new && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-B.txt
for round in 1 2; do
  for f in "1024x4096x4096 _bf16 v13" "8192x4096x4096 _bf16 v13" "64x28672x8192 _bf16 v19" "16x28672x8192 _bf16 v23" \
           "128x4096x4096 _bf16 v19" "256x4096x4096 _bf16 v13" "16x11008x4096 _bf16 v23" "128x4096x11008 _bf16 v13"; do
    for b in base new; do
      [ $(( $(date +%s) - START )) -gt 300 ] && break 3
      echo "### round $round $b $f" >> $L/ab-B.log
      timeout 60 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-B.log
    done
  done
done
date -u >> $L/device-B.txt
tar czf $OUT/logs-B.tar.gz -C $L .
LEFT=$(( 580 - ($(date +%s) - START) ))
REQUIRE_GPU=1 timeout $LEFT compute-sanitizer --tool racecheck ./tests/int4_linear --exact gpu::split_k_ragged > $L/sanitizer-racecheck-split_k_ragged-B.log 2>&1
echo "racecheck gpu::split_k_ragged exit $? (limit $LEFT s): $(grep -E 'RACECHECK SUMMARY|test result' $L/sanitizer-racecheck-split_k_ragged-B.log | tr '\n' ' ')" | tee -a $L/tests-B.log
date -u >> $L/device-B.txt
tar czf $OUT/logs-B.tar.gz -C $L .
