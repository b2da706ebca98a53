#!/bin/bash
# Run 34 call B: the split-K tile's last block adds the slices (no second
# kernel). Every GPU test of every binary, memcheck and synccheck of the
# split-K tests, then qk-base (9865a75: the reduction kernel) against qk-new
# (this build; QK_PROBE=static: a workspace allocated and zeroed once, no
# allocation, memset or free nodes, measurement only), bf16, graph cold.
cd .carry && ( [ -d tests ] || tar xJf t.tar.xz ) && for b in base new; do ( [ -f qk-$b ] || xz -dc qk-$b.xz > qk-$b ) && chmod +x qk-$b; done && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-B.txt
for t in tests/*; do
  REQUIRE_GPU=1 timeout 200 ./$t > $L/tests-$(basename $t)-B.log 2>&1; echo "$(basename $t) exit $?" | tee -a $L/tests-B.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$(basename $t)-B.log | tail -3 | tee -a $L/tests-B.log
done
for tool in memcheck synccheck; do
  REQUIRE_GPU=1 timeout 120 compute-sanitizer --tool $tool ./tests/int4_linear gpu::split_k --test-threads=1 > $L/sanitizer-$tool-B.log 2>&1
  echo "$tool exit $?: $(grep -E 'ERROR SUMMARY|test result' $L/sanitizer-$tool-B.log | tr '\n' ' ')" | tee -a $L/tests-B.log
done
date -u >> $L/device-B.txt
for shape in "16x11008x4096 _bf16 v23" "16x4096x11008 _bf16 v23" "16x8192x28672 _bf16 v23" "64x4096x11008 _bf16 v19" "128x11008x4096 _bf16 v13" "128x4096x4096 _bf16 v19"; do
  for run in base new new-static; do
    echo "### $run $shape" >> $L/ab-B.log
    b=${run%-static}; p=; [ $run = new-static ] && p=static
    QK_PROBE=$p timeout 100 ./qk-$b bench --kernel "int4_linear $shape split" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-B.log
  done
done
date -u >> $L/device-B.txt
