#!/bin/bash
# Run 44 call D (H100): where the producer-consumer GEMMs' step goes at
# small M, for the next session (call B: shared tails did not shorten
# 16x28672x8192, so its 112 blocks' step is what bounds it). `ncu` of one
# launch of aca1e14's version 23 at 16x28672x8192 (unsplit, 112 blocks) and
# 16x8192x28672 (split 4, 128 blocks), and version 19 at 64x28672x8192:
# the raw metrics of SpeedOfLight, WarpStateStats, SchedulerStats,
# MemoryWorkloadAnalysis, InstructionStats and Occupancy, then the source
# page (SASS, per-instruction warp-stall samples) of version 23 unsplit.
cd .carry && xz -dc quant-kernels.xz > quant-kernels && chmod +x quant-kernels && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-D.txt
NCU=/usr/local/cuda/bin/ncu
raw() { # kernel-regex filter
  [ $(( $(date +%s) - START )) -gt 400 ] && { echo "$1 $2 not run: time" >> $L/ncu-D.log; return; }
  echo "### $1 $2 (at $(( $(date +%s) - START )) s)" >> $L/ncu-D.log
  timeout 150 $NCU --clock-control none --page raw --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
    --section MemoryWorkloadAnalysis --section InstructionStats --section Occupancy \
    -k regex:^$1$ -c 1 ./quant-kernels bench --kernel "$1 $2" --iters 1 >> $L/ncu-D.log 2>&1
  tar czf $OUT/logs-D.tar.gz -C $L .
}
raw int4_linear_v23_bf16 "16x28672x8192 sym"
raw int4_linear_v23_split_k_bf16 "split 4 16x8192x28672 sym"
raw int4_linear_v19_bf16 "64x28672x8192 sym"
echo "### source int4_linear_v23_bf16 16x28672x8192 (at $(( $(date +%s) - START )) s)" >> $L/ncu-D.log
timeout 200 $NCU --clock-control none --section SourceCounters --page source --print-source sass --csv \
  -k regex:^int4_linear_v23_bf16$ -c 1 ./quant-kernels bench --kernel "int4_linear_v23_bf16 16x28672x8192 sym" --iters 1 > $L/ncu-source-D.csv 2>> $L/ncu-D.log
echo "source exit $? at $(( $(date +%s) - START )) s" >> $L/ncu-D.log
gzip $L/ncu-D.log $L/ncu-source-D.csv
date -u >> $L/device-D.txt
tar czf $OUT/logs-D.tar.gz -C $L .
