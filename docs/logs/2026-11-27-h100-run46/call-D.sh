#!/bin/bash
# Run 46 call D (H100): does version 12's lead over version 13 in split
# calls at K = 4096 (calls B and C) hold with zero points, where version
# 13 reads its constants 8 steps at a time and version 12 step by step?
# The report times only symmetric weights past 32 rows, so `probe` is
# 3365081 with versions 12 and 13 timed in both modes up to 256 rows
# (probe-asym-cases-D.patch, report cases only). Three rounds.
cd .carry && xz -dc qk-probe.xz > qk-probe && chmod +x qk-probe && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-D.txt
FILTERS=()
for s in 128x11008x4096 256x4096x4096 128x4096x11008; do FILTERS+=("$s _bf16 v12" "$s _bf16 v13"); done
for round in 1 2 3; do
  for f in "${FILTERS[@]}"; do
    [ $(( $(date +%s) - START )) -gt 300 ] && { echo "round $round $f not run: time" >> $L/ab-D.log; continue; }
    echo "### r$round $f (at $(( $(date +%s) - START )) s)" >> $L/ab-D.log
    timeout 100 ./qk-probe bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-D.log
  done
  tar czf $OUT/logs-D.tar.gz -C $L .
done
date -u >> $L/device-D.txt
tar czf $OUT/logs-D.tar.gz -C $L .
