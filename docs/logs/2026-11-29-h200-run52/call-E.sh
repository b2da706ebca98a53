#!/bin/bash
# Run 52 call E (H200): HEAD (40366b5: version 24 with its codes copied by the
# TMA unit): the whole bf16 int4 report and PyTorch's linear peers with
# their comparison, then every GPU test of every binary, then
# compute-sanitizer racecheck and synccheck of version 24's tile test
# (call D ran its memcheck on the same kernels), through scripts/gpu-check.sh.
# Predicted before the call: M = 32 as call D's tma build (about 9.95,
# 15.95, 16.9, 61.5, 59.3 µs), every other case within 2% of call B; every
# test passes, the sanitizers are clean.
cd .carry && xz -dc qk.xz > quant-kernels && chmod +x quant-kernels && rm -rf tests && tar xJf t.tar.xz
L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-E.txt
STEPS="bench peers compare" BENCH_KERNEL="int4_linear bf16" PEERS_ONLY=linear \
  timeout 380 ./gpu-check.sh $L/e > /dev/null 2>&1; echo "bench exit $? at $(( $(date +%s) - START )) s" | tee -a $L/device-E.txt
T=int4_linear:--exact,gpu::thirty_two_row_tile_ragged
STEPS="tests sanitizer" SANITIZE_RUNS="racecheck:$T synccheck:$T" \
  timeout 200 ./gpu-check.sh $L/t > /dev/null 2>&1; echo "tests exit $? at $(( $(date +%s) - START )) s" | tee -a $L/device-E.txt
grep -E "^== |^-- |test result|FAILED|SUMMARY" $L/t/checks.log
date -u >> $L/device-E.txt
tar czf $OUT/logs-E.tar.gz -C $L .
