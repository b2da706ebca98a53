#!/bin/bash
# Run 32 call D (call C's form with the hardware's division in the
# partition, no shift-and-subtract): the int4 linear GPU tests; versions 23
# and 25 (the "v2" word, with 22) at M = 16 on the two large shapes, bf16,
# two rounds.
cd .carry && ( [ -d tests ] || tar xJf t.tar.xz ) && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-D.txt
REQUIRE_GPU=1 timeout 240 ./tests/int4_linear > $L/tests-int4_linear-D.log 2>&1; echo "int4_linear exit $?" | tee -a $L/tests-D.log
grep -E "FAILED|failed|panicked|test result" $L/tests-int4_linear-D.log | tail -5 | tee -a $L/tests-D.log
for round in 1 2; do for s in 28672x8192 8192x28672; do
  timeout 60 ./quant-kernels bench --kernel "int4_linear 16x$s _bf16 v2 sym" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-D.log
done; done
date -u >> $L/device-D.txt
