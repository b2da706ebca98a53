#!/bin/bash
# Run 43 call D (H100): where the decode GEMV's time goes in one launch.
# `timeline` (probe-timeline.patch; kernels as base otherwise): lane 0 of
# each group's first warp writes its start and end (%globaltimer, ns), the
# SM cycles (%clock) from its start to the grid wait, to the first batch's
# products, to the loop's end and to its end, and its SM (%smid) over the
# group's first 16 outputs; the report dumps the checked launch's outputs
# (PROBE_DUMP). Version 17's `_m8_` blocks at M = 1, bf16, symmetric, the
# five shapes, with and without `--serialized`.
cd .carry && xz -dc qk-timeline.xz > qk-timeline && chmod +x qk-timeline && L=/tmp/logs && mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-D.txt
for mode in pdl serialized; do
  mkdir -p $L/dump-$mode
  flag=""; [ $mode = serialized ] && flag=--serialized
  echo "### timeline $mode" >> $L/ab-D.log
  PROBE_DUMP=$L/dump-$mode timeout 200 ./qk-timeline bench $flag --kernel "int4_linear _m8_ _bf16 v17 1x sym" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-D.log
  tar czf $OUT/logs-D.tar.gz -C $L .
done
date -u >> $L/device-D.txt
tar czf $OUT/logs-D.tar.gz -C $L .
