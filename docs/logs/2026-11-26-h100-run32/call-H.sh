#!/bin/bash
# Run 32 call H (the final build: one launch path through cuLaunchKernelEx):
# every GPU test of every binary (REQUIRE_GPU=1); memcheck of the int4
# linear, elementwise and graph binaries; the report's int4 cases at 16 x
# 4096 x 4096 and the elementwise ones at 1M, launched programmatically and
# --serialized (the attribute-free path), each checked against the reference.
cd .carry && ( [ -d tests ] || tar xJf t.tar.xz ) && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-H.txt
for t in tests/*; do
  REQUIRE_GPU=1 timeout 240 ./$t > $L/tests-$(basename $t)-H.log 2>&1; echo "$(basename $t) exit $?" | tee -a $L/tests-H.log
  grep -E "FAILED|panicked|test result" $L/tests-$(basename $t)-H.log | tail -3 | tee -a $L/tests-H.log
done
for t in int4_linear add_mul_exp quantize_int8 graph; do
  timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 ./tests/$t >> $L/sanitizer-H.log 2>&1
  echo "memcheck $t exit $?" | tee -a $L/tests-H.log; tail -1 $L/sanitizer-H.log | tee -a $L/tests-H.log
done
for mode in "" --serialized; do
  echo "### bench $mode" >> $L/bench-H.log
  timeout 90 ./quant-kernels bench $mode --kernel "16x4096x4096 _bf16" --json /tmp/r.json --png /tmp/p.png >> $L/bench-H.log 2>&1
  echo "bench int4 $mode exit $?" | tee -a $L/tests-H.log
  timeout 90 ./quant-kernels bench $mode --kernel "add_mul_exp 1000000" --json /tmp/r.json --png /tmp/p.png >> $L/bench-H.log 2>&1
  echo "bench elementwise $mode exit $?" | tee -a $L/tests-H.log
done
date -u >> $L/device-H.txt
