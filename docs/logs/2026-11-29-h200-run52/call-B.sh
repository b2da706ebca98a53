#!/bin/bash
# Run 52 call B (H200): the whole bf16 int4 report on HEAD (9a56920;
# its kernels 0327715's: version 24 picked from 17 to 32 rows) and PyTorch's linear
# peers in the same sitting, with their comparison (scripts/gpu-check.sh).
# Predicted before the call: M = 32 at the library's pick (version 24)
# 8-16% faster than run 51's call E (version 19: 10.87, 18.15, 18.51, 74.56,
# 68.51 µs -> about 10.0, 16.4, 17.0, 63, 61), F.linear f16 / ours at M = 32
# 1.85-1.95x on the two largest shapes (1.56x and 1.72x in call E); every
# other case within 1-2% of call E (no other kernel changed: versions 22
# and 23's SASS is byte-identical to 4afa0f6's).
cd .carry && xz -dc qk.xz > quant-kernels && chmod +x quant-kernels
L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-B.txt
STEPS="bench peers compare" BENCH_KERNEL="int4_linear bf16" PEERS_ONLY=linear \
  timeout 560 ./gpu-check.sh $L/b > /dev/null 2>&1; echo "gpu-check exit $? at $(( $(date +%s) - START )) s" | tee -a $L/device-B.txt
tail -3 $L/b/bench.log
date -u >> $L/device-B.txt
tar czf $OUT/logs-B.tar.gz -C $L .
