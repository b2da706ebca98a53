#!/bin/bash
# Run 24 call C: the final build's GPU tests (the binaries that touch the
# int4 kernels), compute-sanitizer memcheck and synccheck of the whole int4
# linear binary and racecheck of its tiled-GEMM test (every tiled version,
# 19 included).
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-C.txt
for t in int4_linear int4_weights ptx raw_launch graph; do timeout 120 tests/$t > $L/tests-$t-C.log 2>&1; echo "$t exit $?"; done
grep -hE "test result|FAILED|panicked" $L/tests-*-C.log
for tool in memcheck synccheck; do
  timeout 110 compute-sanitizer --tool $tool --error-exitcode 99 tests/int4_linear --test-threads=1 > $L/sanitizer-$tool-C.log 2>&1; echo "$tool exit $?"
  grep -E "ERROR SUMMARY|test result" $L/sanitizer-$tool-C.log
done
timeout 200 compute-sanitizer --tool racecheck --error-exitcode 99 tests/int4_linear gemm_tiles --test-threads=1 > $L/sanitizer-racecheck-C.log 2>&1; echo "racecheck exit $?"
grep -E "RACECHECK SUMMARY|test result" $L/sanitizer-racecheck-C.log
