#!/bin/bash
# Run 43 call C (H100): does the decode GEMV's time at K = 4096 follow its
# bytes, or its blocks a multiprocessor? `shapes` (probe-shapes.patch: the
# report's linear shapes replaced by N = 8448, 10560, 11008, 11616, 12672
# at K = 4096; kernels as base) graph-timed and serialized, M = 1, bf16,
# symmetric, version 17.
cd .carry && xz -dc qk-shapes.xz > qk-shapes && chmod +x qk-shapes && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-C.txt
for round in 1 2; do
  for mode in "" --serialized; do
    echo "### shapes $mode round $round (at $(( $(date +%s) - START )) s)" >> $L/ab-C.log
    timeout 150 ./qk-shapes bench $mode --kernel "int4_linear _m8_ _bf16 v17 1x sym" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-C.log
    tar czf $OUT/logs-C.tar.gz -C $L .
  done
done
date -u >> $L/device-C.txt
tar czf $OUT/logs-C.tar.gz -C $L .
