#!/bin/bash
# Run 42 call E: call B's base and ring-4 builds timed with `--serialized`
# (every kernel after the previous one has ended, no programmatic
# dependent launch), since call D's `ncu` (one launch, serialized by the
# profiler) had ring 4 no slower than base where the graph-timed report
# of call B had it 19% slower. Version 17's library block, M = 1, bf16.
cd .carry && for b in base ring4; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-E.txt
for b in ring4 base; do
  echo "### $b serialized (at $(( $(date +%s) - START )) s)" >> $L/ab-E.log
  timeout 100 ./qk-$b bench --serialized --kernel "int4_linear _m8_ _bf16 v17 groups 1 1x sym" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-E.log
  tar czf $OUT/logs-E.tar.gz -C $L .
done
date -u >> $L/device-E.txt
tar czf $OUT/logs-E.tar.gz -C $L .
