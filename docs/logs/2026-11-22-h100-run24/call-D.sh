#!/bin/bash
# Run 24 call D: Nsight Compute's warp stall reasons (per issued
# instruction) of versions 18 and 19 at 64 x 28672 x 8192, unsplit, and
# split 4 ways at 64 x 8192 x 28672, where version 18 was faster.
cd .carry && tar xJf t.tar.xz && L=$OUT
N=/usr/local/cuda/bin/ncu
M="--clock-control none --section SpeedOfLight --section WarpStateStats --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum"
for c in "int4_linear_v18_bf16 64x28672x8192" "int4_linear_v19_bf16 64x28672x8192" "int4_linear_v18_split_k_bf16 64x8192x28672" "int4_linear_v19_split_k_bf16 64x8192x28672"; do
  timeout 60 $N $M -k regex:${c%% *} -c 1 ./quant-kernels bench --kernel "$c" --iters 1 2>&1 | grep -v "^\["
done > $L/ncu-D.log 2>&1
grep -E "^  [a-z_]+.*\(|Duration|issue_stalled.*ratio +[0-9.]*[1-9]" $L/ncu-D.log | awk '{ if ($NF+0 >= 0.2 || $0 ~ /Duration|\(/) print }' | head -80
