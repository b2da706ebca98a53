#!/bin/bash
# Run 40 call B: call A's base runs printed nothing (their errors were
# filtered out): the base build's output in full first, then the A/B
# again, alternating, three rounds of the shapes whose cases take seconds,
# one round of the two largest at M = 1 and 16.
cd .carry && xz -dc qk-base.xz > qk-base && xz -dc quant-kernels.xz > qk-new && chmod +x qk-base qk-new && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-B.txt
timeout 60 ./qk-base bench --kernel "int4_linear 1x4096x4096 _bf16 v17" --json /tmp/r.json --png /tmp/p.png > $L/base-output-B.log 2>&1; echo "base exit $?"; tail -5 $L/base-output-B.log
ab() {
  for b in base new; do
    [ $(( $(date +%s) - START )) -gt $2 ] && return
    echo "### round $3 $b $1" >> $L/ab-B.log
    timeout 60 ./qk-$b bench --kernel "int4_linear $1 _bf16 v17" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" >> $L/ab-B.log
  done
}
for round in 1 2 3; do
  for c in 1x4096x4096 1x11008x4096 1x4096x11008 16x4096x4096 16x11008x4096 16x4096x11008; do ab $c 330 $round; done
done
for c in 1x28672x8192 1x8192x28672 16x28672x8192 16x8192x28672; do ab $c 520 1; done
date -u >> $L/device-B.txt
tar czf $OUT/logs-B.tar.gz -C $L .
