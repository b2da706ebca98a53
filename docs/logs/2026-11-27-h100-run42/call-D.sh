#!/bin/bash
# Run 42 call D: `ncu` of version 17's library block at 1x11008x4096
# (bf16, symmetric, G = 128) in the shipped build (base) and the ring-4
# build of call B: why three batches of codes in flight a warp were slower.
cd .carry && for b in base ring4; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-D.txt
for b in base ring4; do
  echo "### $b" >> $L/ncu-D.log
  timeout 140 /usr/local/cuda/bin/ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy \
    -k regex:^int4_linear_v17_m8_w2_g128_bf16$ -c 1 ./qk-$b bench --kernel "int4_linear_v17_m8_w2_g128_bf16 groups 1 1x11008x4096 sym" --iters 1 >> $L/ncu-D.log 2>&1
  tar czf $OUT/logs-D.tar.gz -C $L .
done
date -u >> $L/device-D.txt
tar czf $OUT/logs-D.tar.gz -C $L .
