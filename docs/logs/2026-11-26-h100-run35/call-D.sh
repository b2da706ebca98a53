#!/bin/bash
# Run 35 call D: split-K with the caller's workspace (no allocation and free
# nodes in the graph; the cluster sum of calls A-C reverted). The int4,
# raw-launch and graph GPU tests, memcheck of the new test, then the A/B of
# be4963c (qk-base: the report's split calls take their workspace from the
# pool) against this build (qk-new: from a buffer the report owns), bf16,
# the split shapes (28672 x 8192 runs unsplit to M = 64), two rounds.
cd .carry && rm -rf tests && tar xJf t.tar.xz && for b in base new; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-D.txt
for t in int4_linear raw_launch graph; do
  REQUIRE_GPU=1 timeout 150 ./tests/$t > $L/tests-$t-D.log 2>&1; echo "$t exit $?" | tee -a $L/tests-D.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-D.log | tail -3 | tee -a $L/tests-D.log
done
REQUIRE_GPU=1 timeout 100 compute-sanitizer --tool memcheck ./tests/int4_linear gpu::split_k_with_callers_workspace > $L/sanitizer-memcheck-D.log 2>&1
echo "memcheck exit $?: $(grep -E 'ERROR SUMMARY|test result' $L/sanitizer-memcheck-D.log | tr '\n' ' ')" | tee -a $L/tests-D.log
date -u >> $L/device-D.txt
for round in 1 2; do for f in "16x4096x _bf16 v23" "16x11008x4096 _bf16 v23" "16x8192x28672 _bf16 v23" "64x4096x _bf16 v19" "64x11008x4096 sym _bf16 v19"; do for b in base new; do
  echo "### round $round $b $f" >> $L/ab-D.log
  timeout 60 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "split.*graph cold" >> $L/ab-D.log
done; done; done
date -u >> $L/device-D.txt
