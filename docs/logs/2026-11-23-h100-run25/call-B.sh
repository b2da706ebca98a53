#!/bin/bash
# Run 25 call B: where version 21's time goes. Nsight Compute of version 21
# split 6, version 19 split 8 (its GEMM and the reduction) and version 19
# unsplit at 64 x 4096 x 4096 (bf16): durations, launch statistics and
# warp stall reasons.
cd .carry && tar xJf t.tar.xz && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-B.txt
N=/usr/local/cuda/bin/ncu
M="--clock-control none --section SpeedOfLight --section LaunchStats --section WarpStateStats --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,gpu__time_duration.sum"
for c in "int4_linear_v21_k6_bf16:v21 64x4096x4096" "int4_linear_v19_split_k_bf16:v19 split 64x4096x4096" "int4_linear_split_k_reduce_bf16:v19 split 64x4096x4096" "int4_linear_v19_bf16:v19 64x4096x4096"; do
  k=${c%%:*}; f=${c#*:}
  echo "##### $k ($f)"
  timeout 90 $N $M -k regex:^$k\$ -c 1 ./quant-kernels bench --kernel "$f" --iters 1 2>&1 | grep -v "^\["
done > $L/ncu-B.log 2>&1
grep -E "^#####|Duration|Cluster|Warp Cycles Per Issued|barrier|membar|long_scoreboard|stalled_wait|Executed Instructions  " $L/ncu-B.log | head -80
