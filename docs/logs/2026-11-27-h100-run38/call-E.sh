#!/bin/bash
# Run 38 call E: ncu's source counters (warp-state samples per SASS
# instruction) of version 13 at 8192 x 4096 x 4096, the shipped build: where
# the consumers and producers of the large-M GEMM stall (call D gave the
# kernel-wide reasons only).
cd .carry && xz -dc quant-kernels.xz > quant-kernels && chmod +x quant-kernels && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-E.txt
timeout 200 ncu --clock-control none -k int4_linear_v13_bf16 -c 1 --section SourceCounters --section WarpStateStats -o /tmp/v13 ./quant-kernels bench --kernel "int4_linear_v13_bf16 8192x4096x4096" --iters 1 > $L/ncu-E.log 2>&1
echo "ncu exit $?"
ncu -i /tmp/v13.ncu-rep --page source --csv --print-source sass > $L/ncu-source-E.csv 2>> $L/ncu-E.log; echo "source exit $?"
ncu -i /tmp/v13.ncu-rep --page details > $L/ncu-details-E.txt 2>> $L/ncu-E.log
gzip $L/ncu-source-E.csv; ls -la $L
date -u >> $L/device-E.txt
