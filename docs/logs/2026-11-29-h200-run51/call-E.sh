#!/bin/bash
# Run 51 call E (H200): the whole bf16 int4 report on HEAD and PyTorch's
# linear peers in the same sitting, with their comparison, through
# scripts/gpu-check.sh (BENCH_KERNEL, PEERS_ONLY: its first run on a GPU).
# Predicted before the call: M = 1 within 1% of run 50's call D (the `_m8_`
# PTX unchanged); at M = 16 version 17's rows 0.8-7% faster than call D,
# the library's pick at 16 x 4096 x 4096 (version 17) 8.3-8.4 µs; every
# other M within 1-2% of call D; picks within 2.5% of the fastest.
cd .carry && xz -dc qk.xz > quant-kernels && chmod +x quant-kernels
L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-E.txt
STEPS="bench peers compare" BENCH_KERNEL="int4_linear bf16" PEERS_ONLY=linear \
  timeout 560 ./gpu-check.sh $L/e > /dev/null 2>&1; echo "gpu-check exit $? at $(( $(date +%s) - START )) s" | tee -a $L/device-E.txt
tail -3 $L/e/bench.log
date -u >> $L/device-E.txt
tar czf $OUT/logs-E.tar.gz -C $L .
