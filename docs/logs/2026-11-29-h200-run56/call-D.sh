#!/bin/bash
# Run 56 call D (H200): the final kernels (PTX byte-identical to call C's
# v19tma, which carries call A's packed constants): the whole bf16 int4
# report and PyTorch's linear peers with their comparison, through
# scripts/gpu-check.sh, for the README table and PERF's status table;
# then the int4, int4_weights, ptx, raw_launch and graph test binaries.
# Predicted: versions 23 and 24 as call A's `packed`, version 19 as call
# C's `v19tma`; the other versions within 2% of run 54's call E.
cd .carry && xz -dc qk.xz > quant-kernels && chmod +x quant-kernels && rm -rf tests && tar xJf t.tar.xz
L=$OUT && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-D.txt
STEPS="bench peers compare" BENCH_KERNEL="int4_linear bf16" PEERS_ONLY=linear \
  timeout 340 ./gpu-check.sh $L/d > /dev/null 2>&1; echo "bench exit $? at $(( $(date +%s) - START )) s" | tee -a $L/device-D.txt
export REQUIRE_GPU=1
for t in int4_linear int4_weights ptx raw_launch graph; do
    left=$(( 500 - $(date +%s) + START )); [ $left -lt 20 ] && { echo "$t skipped" | tee -a $L/device-D.txt; continue; }
    timeout $left tests/$t > $L/d/tests-$t.log 2>&1
    echo "$t exit $? at $(( $(date +%s) - START )) s: $(grep -E 'test result' $L/d/tests-$t.log)" | tee -a $L/device-D.txt
done
tar cJf $L/test-logs.tar.xz -C $L/d $(cd $L/d && ls tests-*.log) && rm $L/d/tests-*.log
date -u >> $L/device-D.txt
