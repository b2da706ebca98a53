#!/bin/bash
# Run 23 call I: the final build (commit 75b36f1: version 18 chosen at 49-64
# rows, its split step, version 17's entry-point table after the review).
# The GPU test binaries that touch the int4 kernels, then compute-sanitizer:
# memcheck and synccheck of the whole int4 linear binary, racecheck of the
# version-17 block test.
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-I.txt
for t in int4_linear int4_weights ptx raw_launch graph; do timeout 120 tests/$t > $L/tests-$t-I.log 2>&1; echo "$t exit $?"; done
grep -hE "test result|FAILED|panicked" $L/tests-*-I.log
for tool in memcheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 99 tests/int4_linear --test-threads=1 > $L/sanitizer-$tool-I.log 2>&1; echo "$tool exit $?"
  grep -E "ERROR SUMMARY|test result" $L/sanitizer-$tool-I.log
done
timeout 90 compute-sanitizer --tool racecheck --error-exitcode 99 tests/int4_linear v17_every_block --test-threads=1 > $L/sanitizer-racecheck-I.log 2>&1; echo "racecheck exit $?"
grep -E "RACECHECK SUMMARY|test result" $L/sanitizer-racecheck-I.log
