#!/bin/bash
# Run 31 call A: every kernel waits for the previous grid at entry and the
# host launches all of them with programmatic stream serialization (b1ff571).
# Every GPU test (REQUIRE_GPU=1, with the chain test from M = 1 to 8192);
# compute-sanitizer memcheck of every test binary but raw_launch (huge and
# failed-capture tests skipped, as scripts/gpu-check.sh does), synccheck of
# the int4 linear binary, racecheck of the elementwise binaries.
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-A.txt
for t in tests/*; do echo "=== $t" >> $L/tests-A.log; timeout 200 $t >> $L/tests-A.log 2>&1; echo "$t exit $?"; done
grep -hE "^===|test result|FAILED|panicked" $L/tests-A.log | head -30
S="--skip huge --skip cpu:: --skip failed_capture --test-threads=1"
for run in memcheck:add_mul_exp memcheck:quantize_int8 memcheck:graph memcheck:int4_weights memcheck:int4_linear synccheck:int4_linear racecheck:add_mul_exp racecheck:quantize_int8; do
  tool=${run%%:*}; t=${run#*:}
  echo "-- $tool $t" >> $L/sanitizer-A.log
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 99 tests/$t $S >> $L/sanitizer-A.log 2>&1; echo "$tool $t exit $?"
done
grep -hE "^-- |ERROR SUMMARY|RACECHECK SUMMARY|test result" $L/sanitizer-A.log
