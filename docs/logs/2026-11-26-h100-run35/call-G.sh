#!/bin/bash
# Run 35 call G: where split-K's second kernel's time goes. ncu (which
# runs each kernel alone, so no programmatic overlap) times the GEMM and
# the reduction of the library's split calls apart (gpu__time_duration),
# 39dda99, bf16, symmetric, 3 launches each.
cd .carry && xz -dc quant-kernels.xz > quant-kernels && chmod +x quant-kernels && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-G.txt
for f in "16x11008x4096 sym _bf16 v23 split" "16x4096x4096 sym _bf16 v23 split" "16x8192x28672 sym _bf16 v23 split" "64x4096x11008 sym _bf16 v19 split" "128x11008x4096 sym _bf16 v13 split"; do
  echo "### $f" >> $L/ncu-G.log
  timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum,sm__cycles_active.avg,dram__bytes_read.sum,lts__t_bytes.sum ./quant-kernels bench --kernel "int4_linear $f" --iters 3 2>&1 | grep -E "int4_linear_.*\(|gpu__time_duration|sm__cycles_active|dram__bytes_read|lts__t_bytes|ERROR|error" >> $L/ncu-G.log
done
date -u >> $L/device-G.txt
