#!/bin/bash
# Run 43 call J (H100): the int4 linear and int4 weights GPU tests of
# 32b18bd, the session's last commit (PTX as cea4808's; the f64
# reference's index renamed, the plan test's new case).
cd .carry && rm -rf tests && tar xJf t.tar.xz && L=/tmp/logs && mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-J.txt
for t in int4_linear int4_weights; do
  REQUIRE_GPU=1 timeout 150 ./tests/$t > $L/tests-$t-J.log 2>&1; echo "$t exit $?" | tee -a $L/tests-J.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-J.log | tail -3 | tee -a $L/tests-J.log
done
date -u >> $L/device-J.txt
tar czf $OUT/logs-J.tar.gz -C $L .
