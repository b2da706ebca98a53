#!/bin/bash
# Run 36 call E: the tile order in 32 bits with one division (call D found
# the 64-bit form 1-2.5% slower at M = 16-64, where the order changes
# nothing; and 87ad22e's sm_90a PTX had a divide-by-zero panic path). The
# int4 linear, PTX, raw-launch and graph GPU tests and memcheck of the
# many-groups test on this build (qk-new), then call D's A/B against
# 4ef4656 (qk-base), one round, and two large-M cases.
cd .carry && rm -rf tests && tar xJf t.tar.xz && for b in base new; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-E.txt
for t in int4_linear ptx raw_launch graph; do
  REQUIRE_GPU=1 timeout 120 ./tests/$t > $L/tests-$t-E.log 2>&1; echo "$t exit $?" | tee -a $L/tests-E.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-E.log | tail -3 | tee -a $L/tests-E.log
done
REQUIRE_GPU=1 timeout 100 compute-sanitizer --tool memcheck ./tests/int4_linear gpu::tiled_gemms_many_tile_groups > $L/sanitizer-memcheck-E.log 2>&1
echo "memcheck exit $?: $(grep -E 'ERROR SUMMARY|test result' $L/sanitizer-memcheck-E.log | tr '\n' ' ')" | tee -a $L/tests-E.log
date -u >> $L/device-E.txt
for f in "16x11008x4096 _bf16 v23" "16x4096x11008 _bf16 v23" "16x8192x28672 _bf16 v23" "64x4096x11008 _bf16 v19" "64x11008x4096 _bf16 v19" "128x11008x4096 _bf16 v13" "1024x28672x8192 _bf16 v13" "8192x28672x8192 _bf16 v13"; do for b in base new; do
  echo "### $b $f" >> $L/ab-E.log
  timeout 60 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-E.log
done; done
date -u >> $L/device-E.txt
