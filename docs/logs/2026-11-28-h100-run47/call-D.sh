#!/bin/bash
# Run 47 call D (H100), a probe for the next session: call B's `sync` build
# (fcf84f3's kernels, `base`)
# against `nofence` (`probe-no-fence-D.patch`): with `mma.sync` the
# 16-row consumers read each stage through the generic proxy only, so the
# `fence.proxy.async` after each full-barrier wait (SASS: MEMBAR.ALL.CTA,
# FENCE.VIEW.ASYNC.S) is skipped there (step loop 317 -> 310). Two rounds
# in opposite orders on the 16-row cases; no GPU tests (each case's f64
# check only).
cd .carry && for b in base nofence; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-D.txt
FILTERS=("16x28672x8192 _bf16 v23" "16x8192x28672 _bf16 v2" "16x11008x4096 _bf16 v23" "16x4096x11008 _bf16 v22" "16x4096x4096 _bf16 v23")
for b in base nofence nofence base; do
  for f in "${FILTERS[@]}"; do
    [ $(( $(date +%s) - START )) -gt 270 ] && { echo "$b $f not run: time" >> $L/ab-D.log; continue; }
    echo "### $b $f (at $(( $(date +%s) - START )) s)" >> $L/ab-D.log
    timeout 60 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-D.log
  done
  tar czf $OUT/logs-D.tar.gz -C $L .
done
date -u >> $L/device-D.txt
tar czf $OUT/logs-D.tar.gz -C $L .
