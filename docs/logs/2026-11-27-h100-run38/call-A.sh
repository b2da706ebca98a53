#!/bin/bash
# Run 38 call A: run 37's epilogue-pairs-not-run.patch applied to b55e3c6
# (qk-new, tests): the int4 linear (with the new misaligned-outputs test),
# PTX, raw-launch and graph GPU tests; memcheck, racecheck and synccheck of
# the misaligned-outputs test and memcheck of the ragged split-K test; then
# an A/B against b55e3c6 (qk-base) of the tiled versions at M = 128-8192,
# two rounds, base and new alternating, with the SM clock logged.
cd .carry && rm -rf tests && tar xJf t.tar.xz && for b in base new; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=$OUT
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-A.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv -lms 100 > $L/smi-A.csv 2>&1 &
SMI=$!
for t in int4_linear ptx raw_launch graph; do
  REQUIRE_GPU=1 timeout 150 ./tests/$t > $L/tests-$t-A.log 2>&1; echo "$t exit $?" | tee -a $L/tests-A.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-A.log | tail -3 | tee -a $L/tests-A.log
done
for c in "memcheck gpu::tiled_gemms_misaligned_outputs" "racecheck gpu::tiled_gemms_misaligned_outputs" "synccheck gpu::tiled_gemms_misaligned_outputs" "memcheck gpu::split_k_ragged"; do
  set -- $c
  REQUIRE_GPU=1 timeout 120 compute-sanitizer --tool $1 ./tests/int4_linear --exact $2 > $L/sanitizer-$1-${2#gpu::}-A.log 2>&1
  echo "$1 $2 exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test result' $L/sanitizer-$1-${2#gpu::}-A.log | tr '\n' ' ')" | tee -a $L/tests-A.log
done
date -u >> $L/device-A.txt
for round in 1 2; do
  for f in "1024x4096x4096 _bf16 v13" "8192x4096x4096 _bf16 v13" "1024x11008x4096 _bf16 v13" "8192x11008x4096 _bf16 v13" "1024x4096x11008 _bf16 v13" "1024x28672x8192 _bf16 v13" "256x4096x4096 _bf16 v12" "128x11008x4096 _bf16 v13" "256x4096x4096 _bf16 v10" "128x11008x4096 _bf16 v19"; do
    for b in base new; do
      [ $(( $(date +%s) - START )) -gt 540 ] && break 3
      echo "### round $round $b $f" >> $L/ab-A.log
      timeout 60 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-A.log
    done
  done
done
kill $SMI; date -u >> $L/device-A.txt; gzip $L/smi-A.csv
