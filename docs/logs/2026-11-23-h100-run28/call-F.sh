#!/bin/bash
# Run 28 call F: `ncu` of versions 22 and 23 (call D's build) at
# 16 x 8192 x 28672 split 4, where version 23 is slower, symmetric and
# asymmetric, and at 16 x 28672 x 8192, where it is faster.
cd .carry && ( [ -x quant-kernels ] || tar xJf t.tar.xz ) && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-F.txt
N=/usr/local/cuda/bin/ncu
M="--clock-control none --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,dram__bytes_read.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum"
for k in "int4_linear_v22_split_k_bf16 v22 split 4 b512 16x8192x28672 asym" "int4_linear_v23_split_k_bf16 v23 split 4 b512 16x8192x28672 asym" \
         "int4_linear_v22_split_k_bf16 v22 split 4 b512 16x8192x28672 sym" "int4_linear_v23_split_k_bf16 v23 split 4 b512 16x8192x28672 sym" \
         "int4_linear_v22_bf16 v22 b512 16x28672x8192 sym" "int4_linear_v23_bf16 v23 b512 16x28672x8192 sym"; do
  echo "##### $k"
  timeout 80 $N $M -k regex:^${k%% *}\$ -c 1 ./quant-kernels bench --kernel "$k" --iters 1 2>&1 | grep -v "^\["
done > $L/ncu-F.log 2>&1
grep -E "^#####|Duration|DRAM Throughput|Memory Throughput|inst_executed|dram__bytes|long_scoreboard|stalled_barrier|stalled_wait|stalled_selected|L2 Hit|L1/TEX Hit" $L/ncu-F.log | grep -v "^ *smsp__average_warps_issue_stalled_barrier" | cut -c1-120
