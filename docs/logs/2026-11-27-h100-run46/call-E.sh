#!/bin/bash
# Run 46 call E (H100): the int4 linear GPU tests of the plan's
# mode-aware pick (version 12 over a split version 13 for symmetric
# weights at G = 128 up to k = 8192; the kernels are 3365081's), whose
# chained-layers test now runs version 12 split 4 at M = 256.
cd .carry && tar xJf t.tar.xz && L=/tmp/logs && mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-E.txt
REQUIRE_GPU=1 timeout 200 ./tests/int4_linear > $L/tests-int4_linear-E.log 2>&1; echo "int4_linear exit $?" | tee $L/tests-E.log
grep -E "FAILED|failed|panicked|test result" $L/tests-int4_linear-E.log | tail -5 | tee -a $L/tests-E.log
date -u >> $L/device-E.txt
tar czf $OUT/logs-E.tar.gz -C $L .
