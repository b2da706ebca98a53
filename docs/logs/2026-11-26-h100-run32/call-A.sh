#!/bin/bash
# Run 32 call A (version 25, stream-K on version 23's tile): the int4,
# PTX, raw-launch and graph GPU tests; memcheck of the split-K and
# reference tests (version 25 in both); then versions 22, 23 and 25 (the
# "v2" word) and 17 at M = 16 on the five benchmark shapes, bf16
# symmetric, two rounds of 22/23/25 interleaved with one of 17.
cd .carry && ( [ -d tests ] || tar xJf t.tar.xz ) && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-A.txt
for t in int4_linear ptx raw_launch graph; do
  REQUIRE_GPU=1 timeout 240 ./tests/$t > $L/tests-$t-A.log 2>&1; echo "$t exit $?" | tee -a $L/tests-A.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-A.log | tail -5 | tee -a $L/tests-A.log
done
for t in split_k_ragged matches_reference empty_k; do
  timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 ./tests/int4_linear gpu::$t >> $L/sanitizer-A.log 2>&1
  echo "memcheck $t exit $?" | tee -a $L/tests-A.log; tail -2 $L/sanitizer-A.log | tee -a $L/tests-A.log
done
for round in 1 2; do for s in 4096x4096 11008x4096 4096x11008 28672x8192 8192x28672; do
  timeout 60 ./quant-kernels bench --kernel "int4_linear 16x$s _bf16 sym v2" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-A.log
  [ $round = 1 ] && timeout 60 ./quant-kernels bench --kernel "int4_linear 16x$s _bf16 sym v17" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-A.log
done; done
date -u >> $L/device-A.txt
