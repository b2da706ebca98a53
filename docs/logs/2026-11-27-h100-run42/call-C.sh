#!/bin/bash
# Run 42 call C: the shipped build's (22c5ad5, whose kernels are 9a4c655's)
# int4 linear, PTX, raw-launch and graph GPU tests on the H100; run 41
# had run them on an H200 only.
cd .carry && rm -rf tests && tar xJf t.tar.xz && L=/tmp/logs && mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-C.txt
for t in int4_linear ptx raw_launch graph; do
  REQUIRE_GPU=1 timeout 150 ./tests/$t > $L/tests-$t-C.log 2>&1; echo "$t exit $?" | tee -a $L/tests-C.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-C.log | tail -3 | tee -a $L/tests-C.log
  tar czf $OUT/logs-C.tar.gz -C $L .
done
date -u >> $L/device-C.txt
tar czf $OUT/logs-C.tar.gz -C $L .
