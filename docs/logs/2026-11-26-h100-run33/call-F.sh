#!/bin/bash
# Run 33 call F, the final build (one producer loop for both ways: a branch
# a step in place of call D's two copies): the int4 linear, PTX and
# raw-launch GPU tests, memcheck and synccheck of the windows test; then
# version 23 of f1a262e (qk-base) and of this build (qk-new) at M = 16, bf16
# sym and asym, 16 x 28672 x 8192 in two rounds.
cd .carry && ( [ -d tests ] || tar xJf t.tar.xz ) && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-F.txt
for t in int4_linear ptx raw_launch graph; do
  REQUIRE_GPU=1 timeout 200 ./tests/$t > $L/tests-$t-F.log 2>&1; echo "$t exit $?" | tee -a $L/tests-F.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-F.log | tail -3 | tee -a $L/tests-F.log
done
for tool in memcheck synccheck; do
  REQUIRE_GPU=1 timeout 150 compute-sanitizer --tool $tool ./tests/int4_linear gpu::producers_read_constant_windows --test-threads=1 > $L/sanitizer-$tool-F.log 2>&1
  echo "$tool exit $?: $(grep -E 'ERROR SUMMARY|test result' $L/sanitizer-$tool-F.log | tr '\n' ' ')" | tee -a $L/tests-F.log
done
for s in "16x28672x8192 _bf16 v23" "16x8192x28672 _bf16 v23" "16x11008x4096 _bf16 v23" "16x28672x8192 _bf16 v23"; do for b in base new; do
  echo "### $b $s" >> $L/ab-F.log
  timeout 100 ./qk-$b bench --kernel "int4_linear $s" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-F.log
done; done
date -u >> $L/device-F.txt
