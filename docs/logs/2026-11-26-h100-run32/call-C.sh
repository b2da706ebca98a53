#!/bin/bash
# Run 32 call C (version 25 with a run as its first piece, whole tiles and last piece, each a loop of its own): the
# int4 linear and PTX GPU tests, memcheck of the split-K test; versions 23
# and 25 (the "v2" word, with 22) at M = 16 on the five benchmark shapes,
# bf16, two rounds.
cd .carry && ( [ -d tests ] || tar xJf t.tar.xz ) && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-C.txt
for t in int4_linear ptx; do
  REQUIRE_GPU=1 timeout 240 ./tests/$t > $L/tests-$t-C.log 2>&1; echo "$t exit $?" | tee -a $L/tests-C.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-C.log | tail -5 | tee -a $L/tests-C.log
done
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 ./tests/int4_linear gpu::split_k_ragged > $L/sanitizer-C.log 2>&1
echo "memcheck split_k_ragged exit $?" | tee -a $L/tests-C.log; tail -1 $L/sanitizer-C.log | tee -a $L/tests-C.log
for round in 1 2; do for s in 28672x8192 8192x28672 4096x11008 11008x4096 4096x4096; do
  timeout 60 ./quant-kernels bench --kernel "int4_linear 16x$s _bf16 v2" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-C.log
done; done
date -u >> $L/device-C.txt
