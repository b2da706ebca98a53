#!/bin/bash
# Run 33 call I, the review's build (cf112b9: ConstantWindows with one
# index): every GPU test of every binary, memcheck and synccheck of the
# windows test, then version 23 at M = 16 of f1a262e (qk-base) and of this
# build (qk-new), bf16 sym and asym: 28672 x 8192 two rounds, 8192 x 28672 one.
cd .carry && ( [ -d tests ] || tar xJf t.tar.xz ) && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-I.txt
for t in tests/*; do
  REQUIRE_GPU=1 timeout 200 ./$t > $L/tests-$(basename $t)-I.log 2>&1; echo "$(basename $t) exit $?" | tee -a $L/tests-I.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$(basename $t)-I.log | tail -3 | tee -a $L/tests-I.log
done
for tool in memcheck synccheck; do
  REQUIRE_GPU=1 timeout 150 compute-sanitizer --tool $tool ./tests/int4_linear gpu::producers_read_constant_windows --test-threads=1 > $L/sanitizer-$tool-I.log 2>&1
  echo "$tool exit $?: $(grep -E 'ERROR SUMMARY|test result' $L/sanitizer-$tool-I.log | tr '\n' ' ')" | tee -a $L/tests-I.log
done
for s in "16x28672x8192 _bf16 v23" "16x8192x28672 _bf16 v23" "16x28672x8192 _bf16 v23"; do for b in base new; do
  echo "### $b $s" >> $L/ab-I.log
  timeout 100 ./qk-$b bench --kernel "int4_linear $s" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-I.log
done; done
date -u >> $L/device-I.txt
