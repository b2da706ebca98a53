#!/bin/bash
# Run 23 call D: call C's build: every GPU test binary that touches the
# int4 kernels, compute-sanitizer (memcheck, racecheck, synccheck) on the
# block tests of versions 3-6 and 17, then memcheck on the whole int4
# linear binary.
cd .carry && tar xJf bins.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-D.txt
for t in int4_linear int4_weights ptx raw_launch graph; do timeout 120 tests/$t > $L/tests-$t-D.log 2>&1; echo "$t exit $?"; done
grep -hE "test result|FAILED|panicked" $L/tests-*-D.log
for tool in memcheck racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 99 tests/int4_linear every_block --test-threads=1 > $L/sanitizer-$tool-D.log 2>&1; echo "$tool exit $?"
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|test result" $L/sanitizer-$tool-D.log
done
timeout 250 compute-sanitizer --tool memcheck --error-exitcode 99 tests/int4_linear --test-threads=1 > $L/sanitizer-memcheck-all-D.log 2>&1; echo "memcheck all exit $?"
grep -E "ERROR SUMMARY|test result|^test " $L/sanitizer-memcheck-all-D.log | tail -20
