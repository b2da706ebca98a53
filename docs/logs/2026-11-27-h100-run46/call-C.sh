#!/bin/bash
# Run 46 call C (H100): the library's picks between two versions that
# call B's report left close or the other way round, three rounds of each
# in one sitting, on 3365081: versions 22 and 23 at 16 rows (split and
# unsplit; the library takes 23), and versions 12 and 13 at 128 and 256
# rows (the library takes 13 with 13's split unless the split model
# predicts 12 faster).
cd .carry && xz -dc qk.xz > quant-kernels && chmod +x quant-kernels && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-C.txt
FILTERS=()
for s in 16x4096x11008 16x8192x28672 16x11008x4096; do FILTERS+=("$s _bf16 v22" "$s _bf16 v23"); done
for s in 128x11008x4096 256x4096x4096 128x4096x11008 256x4096x11008; do FILTERS+=("$s _bf16 v12" "$s _bf16 v13"); done
for round in 1 2 3; do
  for f in "${FILTERS[@]}"; do
    [ $(( $(date +%s) - START )) -gt 400 ] && { echo "round $round $f not run: time" >> $L/ab-C.log; continue; }
    echo "### r$round $f (at $(( $(date +%s) - START )) s)" >> $L/ab-C.log
    timeout 100 ./quant-kernels bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-C.log
  done
  tar czf $OUT/logs-C.tar.gz -C $L .
done
date -u >> $L/device-C.txt
tar czf $OUT/logs-C.tar.gz -C $L .
