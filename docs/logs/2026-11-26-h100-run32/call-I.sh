#!/bin/bash
# Run 32 call I (call H's build): memcheck of the graph binary as the
# project runs it (without `failed_capture`, which provokes capture errors
# on purpose: call H's 2 "errors" were those), synccheck of the int4
# linear binary, and the elementwise report at 1M elements launched
# programmatically and --serialized, checked against the reference.
cd .carry && ( [ -d tests ] || tar xJf t.tar.xz ) && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-I.txt
S="--skip huge --skip cpu:: --skip failed_capture --test-threads=1"
for run in memcheck:graph synccheck:int4_linear; do
  tool=${run%%:*}; t=${run#*:}
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 tests/$t $S >> $L/sanitizer-I.log 2>&1
  echo "$tool $t exit $?" | tee -a $L/tests-I.log; tail -1 $L/sanitizer-I.log | tee -a $L/tests-I.log
done
for mode in "" --serialized; do
  echo "### bench $mode" >> $L/bench-I.log
  timeout 90 ./quant-kernels bench $mode --kernel "1M" --json /tmp/r.json --png /tmp/p.png >> $L/bench-I.log 2>&1
  echo "bench elementwise 1M $mode exit $?" | tee -a $L/tests-I.log
done
date -u >> $L/device-I.txt
