#!/bin/bash
# Run 46 call F (H100): the int4 linear GPU tests of 032be2c, where the
# review moved the mode-aware pick (version 12 over a split version 13
# for symmetric weights at G = 128 up to k = 8192) into best_for's
# comparison of the two; the same picks, the kernels 3365081's.
cd .carry && tar xJf t.tar.xz && L=/tmp/logs && mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-F.txt
REQUIRE_GPU=1 timeout 200 ./tests/int4_linear > $L/tests-int4_linear-F.log 2>&1; echo "int4_linear exit $?" | tee $L/tests-F.log
grep -E "FAILED|failed|panicked|test result" $L/tests-int4_linear-F.log | tail -5 | tee -a $L/tests-F.log
date -u >> $L/device-F.txt
tar czf $OUT/logs-F.tar.gz -C $L .
