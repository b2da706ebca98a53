#!/bin/bash
# Run 54 call E (H200): HEAD 689a6c9 (version 19's activations by the TMA
# unit), through scripts/gpu-check.sh: every GPU test of every binary,
# then compute-sanitizer memcheck, racecheck and synccheck of version 19's
# new tile test (sixty_four_row_tile_ragged); then, in what device time
# is left, the whole bf16 int4 report and PyTorch's linear peers with
# their comparison. Logs go straight under $OUT, so that a call cut short
# by the session's device time still returns what ran.
# Predicted before the call: every test passes, the sanitizers are clean;
# version 19's cases as call D's tx19 (M = 64: about 11.36, 18.86, 19.14,
# 71.5, 67.9 µs), every other case within 2% of run 52's call E.
cd .carry && xz -dc qk.xz > quant-kernels && chmod +x quant-kernels && rm -rf tests && tar xJf t.tar.xz
L=$OUT && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-E.txt
T=int4_linear:--exact,gpu::sixty_four_row_tile_ragged
STEPS="tests sanitizer" SANITIZE_RUNS="memcheck:$T racecheck:$T synccheck:$T" \
  timeout 200 ./gpu-check.sh $L/t > /dev/null 2>&1; echo "tests exit $? at $(( $(date +%s) - START )) s" | tee -a $L/device-E.txt
grep -E "^== |^-- |test result|FAILED|SUMMARY" $L/t/checks.log | tee -a $L/device-E.txt
STEPS="bench peers compare" BENCH_KERNEL="int4_linear bf16" PEERS_ONLY=linear \
  timeout 340 ./gpu-check.sh $L/e > /dev/null 2>&1; echo "bench exit $? at $(( $(date +%s) - START )) s" | tee -a $L/device-E.txt
date -u >> $L/device-E.txt
