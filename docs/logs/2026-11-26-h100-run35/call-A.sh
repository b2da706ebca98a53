#!/bin/bash
# Run 35 call A: split-K summed inside clusters (versions 12, 19, 22, 23):
# every GPU test of every binary, then compute-sanitizer (memcheck,
# racecheck, synccheck) of the cluster test.
cd .carry && ( [ -d tests ] || tar xJf t.tar.xz ) && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-A.txt
for t in tests/*; do
  REQUIRE_GPU=1 timeout 240 ./$t > $L/tests-$(basename $t)-A.log 2>&1; echo "$(basename $t) exit $?" | tee -a $L/tests-A.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$(basename $t)-A.log | tail -3 | tee -a $L/tests-A.log
done
for tool in memcheck racecheck synccheck; do for t in cluster_sum_matches_workspace_bits; do
  REQUIRE_GPU=1 timeout 100 compute-sanitizer --tool $tool ./tests/int4_linear gpu::$t --test-threads=1 > $L/sanitizer-$tool-$t-A.log 2>&1
  echo "$tool $t exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test result' $L/sanitizer-$tool-$t-A.log | tr '\n' ' ')" | tee -a $L/tests-A.log
done; done
date -u >> $L/device-A.txt
