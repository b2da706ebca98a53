#!/bin/bash
# Run 35 call C (probe): how many clusters of s blocks run at once, and the
# cluster sum at splits whose clusters all fit (call B's splits did not:
# 16 clusters of 8, 32 of 4 and 43 of 3 took about twice the time). qk-probe
# is this build with QK_PROBE_SPLIT forcing the split of versions 12, 19
# and 23 (not kept; see probe-split-C.md); qk-base is be4963c (workspace sums).
cd .carry && for b in base probe; do ( [ -f qk-$b ] || xz -dc qk-$b.xz > qk-$b ) && chmod +x qk-$b; done && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-C.txt
run() { # build, split (or -), filter
  echo "### $1 split $2 $3" >> $L/probe-C.log
  QK_PROBE_SPLIT=$2 timeout 60 ./qk-$1 bench --kernel "int4_linear $3" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|PROBE" >> $L/probe-C.log
}
for f in "16x4096x4096 _bf16 v23" "16x4096x11008 _bf16 v23" "64x4096x4096 _bf16 v19" "64x4096x11008 _bf16 v19" "128x4096x4096 _bf16 v12"; do
  echo "### base $f" >> $L/probe-C.log
  timeout 60 ./qk-base bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/probe-C.log
done
for s in 5 6 7; do run probe $s "16x4096x4096 _bf16 v23"; run probe $s "16x4096x11008 _bf16 v23"; done
run probe 2 "16x11008x4096 _bf16 v23"; run probe 3 "16x8192x28672 _bf16 v23"
for s in 6 7; do run probe $s "64x4096x4096 _bf16 v19"; run probe $s "64x4096x11008 _bf16 v19"; done
run probe 7 "128x4096x4096 _bf16 v12"; run probe 2 "64x11008x4096 _bf16 v19"
date -u >> $L/device-C.txt
