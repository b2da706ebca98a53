#!/bin/bash
# Run 33 call G, the final build with the huge tests' shared check
# (check_repeated_rows): every GPU test of every binary.
cd .carry && ( [ -d tests ] || tar xJf t.tar.xz ) && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-G.txt
for t in tests/*; do
  REQUIRE_GPU=1 timeout 200 ./$t > $L/tests-$(basename $t)-G.log 2>&1; echo "$(basename $t) exit $?" | tee -a $L/tests-G.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$(basename $t)-G.log | tail -3 | tee -a $L/tests-G.log
done
date -u >> $L/device-G.txt
