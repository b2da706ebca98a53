#!/bin/bash
# Run 48 call C (H100): `ncu` of 196747b (call B's binary) where the next
# steps are to be chosen, no timings. Version 19 at 64 x 28672 x 8192
# against version 22 at 16 rows on the same grid (is the 64-row step's
# extra time the tensor pipe, issue, or waiting?); version 17 at 16 x
# 4096 x 4096 against M = 1 (how many bytes its blocks read from L2);
# version 19 split 8 at 64 x 4096 x 11008 with its reduction kernel.
cd .carry && xz -dc qk.xz > quant-kernels && chmod +x quant-kernels && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-C.txt
profile() { # label, kernel regex, launches, report filter
  [ $(( $(date +%s) - START )) -gt 500 ] && { echo "$1 not run: time" >> $L/ncu-C.log; return; }
  echo "### $1: $2 ($4) at $(( $(date +%s) - START )) s" >> $L/ncu-C.log
  timeout $(( 580 - ($(date +%s) - START) )) /usr/local/cuda/bin/ncu --clock-control none --page raw --section SpeedOfLight \
    --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
    --section InstructionStats --section Occupancy -k "regex:^($2)$" -c $3 ./quant-kernels bench --kernel "$4" --iters 1 >> $L/ncu-C.log 2>&1
  echo "exit $? at $(( $(date +%s) - START )) s" >> $L/ncu-C.log
  tar czf $OUT/logs-C.tar.gz -C $L .
}
profile v19-64 int4_linear_v19_bf16 1 "int4_linear_v19_bf16 64x28672x8192 sym"
profile v22-16 int4_linear_v22_bf16 1 "int4_linear_v22_bf16 16x28672x8192 sym"
profile v17-16 int4_linear_v17_m16_w8_g128_bf16 1 "int4_linear_v17_m16_w8_g128_bf16 groups 1 16x4096x4096 sym"
profile v17-1 int4_linear_v17_m8_w8_g128_bf16 1 "int4_linear_v17_m8_w8_g128_bf16 groups 1 1x4096x4096 sym"
profile v19-split8 "int4_linear_v19_split_k_bf16|int4_linear_split_k_reduce_bf16" 2 "int4_linear_v19_split_k_bf16 64x4096x11008 sym"
date -u >> $L/device-C.txt
tar czf $OUT/logs-C.tar.gz -C $L .
