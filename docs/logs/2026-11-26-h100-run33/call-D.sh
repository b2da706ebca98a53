#!/bin/bash
# Run 33 call D, the build of windows-two-loops-DE.patch (windows with zero
# points or rows past 64 groups, a producer loop for each way): every GPU
# test of every binary; compute-sanitizer memcheck and synccheck of the
# new windows test.
cd .carry && ( [ -d tests ] || tar xJf t.tar.xz ) && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-D.txt
for t in tests/*; do
  REQUIRE_GPU=1 timeout 200 ./$t > $L/tests-$(basename $t)-D.log 2>&1; echo "$(basename $t) exit $?" | tee -a $L/tests-D.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$(basename $t)-D.log | tail -3 | tee -a $L/tests-D.log
done
for tool in memcheck synccheck; do
  REQUIRE_GPU=1 timeout 150 compute-sanitizer --tool $tool ./tests/int4_linear gpu::producers_read_constant_windows --test-threads=1 > $L/sanitizer-$tool-D.log 2>&1
  echo "$tool exit $?: $(grep -E 'ERROR SUMMARY|test result' $L/sanitizer-$tool-D.log | tr '\n' ' ')" | tee -a $L/tests-D.log
done
date -u >> $L/device-D.txt
