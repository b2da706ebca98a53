#!/bin/bash
# Run 35 call B: the chain-of-layers test again (call A's build counted two
# launches for a split that now sums in clusters: a test expectation),
# memcheck and synccheck of the ragged split-K test, then the A/B of
# be4963c (qk-base: slices added by the reduction kernel) against this
# build (qk-new: added inside clusters), bf16, the five shapes, at the
# versions and splits the library takes: M = 16 version 23, M = 32 and 64
# version 19, M = 128 versions 12 and 13 (13 unchanged: the sitting's noise).
cd .carry && rm -rf tests && tar xJf t.tar.xz && for b in base new; do ( [ -f qk-$b ] || xz -dc qk-$b.xz > qk-$b ) && chmod +x qk-$b; done && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-B.txt
REQUIRE_GPU=1 timeout 120 ./tests/int4_linear gpu::programmatic_launches_chain_layers > $L/tests-B.log 2>&1; echo "chain exit $?" | tee -a $L/tests-B.log
for tool in memcheck synccheck; do
  REQUIRE_GPU=1 timeout 150 compute-sanitizer --tool $tool ./tests/int4_linear gpu::split_k_ragged --test-threads=1 > $L/sanitizer-$tool-split_k_ragged-B.log 2>&1
  echo "$tool split_k_ragged exit $?: $(grep -E 'ERROR SUMMARY|test result' $L/sanitizer-$tool-split_k_ragged-B.log | tr '\n' ' ')" | tee -a $L/tests-B.log
done
date -u >> $L/device-B.txt
for case in "16x _bf16 v23" "32x _bf16 v19" "64x _bf16 v19" "128x _bf16 v12" "128x _bf16 v13"; do for b in base new; do
  echo "### $b $case" >> $L/ab-B.log
  timeout 100 ./qk-$b bench --kernel "int4_linear $case" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-B.log
done; done
date -u >> $L/device-B.txt
