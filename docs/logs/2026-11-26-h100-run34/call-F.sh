#!/bin/bash
# Run 34 call F: the build with windows for versions 13, 22 and 23 only
# (versions 12 and 19 compile the scalar loads alone, their SASS identical
# to f1a262e's): every GPU test of every binary, memcheck and synccheck of
# the windows and split-K tests, then versions 19 and 12 at M = 64 (bf16
# sym, the five shapes) of f1a262e (qk-base) and this build (qk-new).
cd .carry && ( [ -d tests ] || tar xJf t.tar.xz ) && for b in base new; do ( [ -f qk-$b ] || xz -dc qk-$b.xz > qk-$b ) && chmod +x qk-$b; done && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-F.txt
for t in tests/*; do
  REQUIRE_GPU=1 timeout 200 ./$t > $L/tests-$(basename $t)-F.log 2>&1; echo "$(basename $t) exit $?" | tee -a $L/tests-F.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$(basename $t)-F.log | tail -3 | tee -a $L/tests-F.log
done
for tool in memcheck synccheck; do for t in producers_read_constant_windows split_k; do
  REQUIRE_GPU=1 timeout 100 compute-sanitizer --tool $tool ./tests/int4_linear gpu::$t --test-threads=1 > $L/sanitizer-$tool-$t-F.log 2>&1
  echo "$tool $t exit $?: $(grep -E 'ERROR SUMMARY|test result' $L/sanitizer-$tool-$t-F.log | tr '\n' ' ')" | tee -a $L/tests-F.log
done; done
date -u >> $L/device-F.txt
for v in v19 v12; do for b in base new; do
  echo "### $b $v" >> $L/ab-F.log
  timeout 120 ./qk-$b bench --kernel "int4_linear 64x _bf16 $v" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-F.log
done; done
date -u >> $L/device-F.txt
