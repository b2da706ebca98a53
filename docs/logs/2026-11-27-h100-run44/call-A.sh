#!/bin/bash
# Run 44 call A (H100): split-K with shared tails (probe-shared-tails-A.patch:
# the kernel change of this session plus a host switch, QK_PROBE_TAILS=T,
# that launches an unsplit v12/v19/v22/v23 plan as heads and T shared
# tails). 28672x8192 leaves 20 of 132 multiprocessors idle at M <= 64
# (112 tiles of 256 rows). `base` is dc8ae46, `tails` the probe build
# (same host without the switch); two rounds in opposite orders. Then the
# regression check of the pipeline's new tile walk on the large-M and
# split paths (versions 13, 19, 23 unsplit and split), and the int4
# linear and raw-launch GPU tests of the probe build.
cd .carry && rm -rf tests && tar xJf t.tar.xz && for b in base tails; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-A.txt
run() { # binary tails filter
  [ $(( $(date +%s) - START )) -gt 420 ] && { echo "$1 T=$2 $3 not run: time" >> $L/ab-A.log; return; }
  echo "### $1 T=$2 $3 (at $(( $(date +%s) - START )) s)" >> $L/ab-A.log
  QK_PROBE_TAILS=$2 timeout 100 ./qk-$1 bench --kernel "int4_linear $3" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-A.log
  tar czf $OUT/logs-A.tar.gz -C $L .
}
for round in 1 2; do
  order="base:0 tails:0 tails:20 tails:16"; [ $round = 2 ] && order="tails:16 tails:20 tails:0 base:0"
  for bt in $order; do
    for f in "16x28672x8192 _bf16 v23" "64x28672x8192 _bf16 v19" "32x28672x8192 _bf16 v19"; do run ${bt%:*} ${bt#*:} "$f"; done
  done
done
for b in base tails tails base; do
  for f in "1024x11008x4096 _bf16 v13" "128x28672x8192 _bf16 v13" "16x11008x4096 _bf16 v23" "64x4096x11008 _bf16 v19"; do run $b 0 "$f"; done
done
for t in int4_linear raw_launch; do
  REQUIRE_GPU=1 timeout 150 ./tests/$t > $L/tests-$t-A.log 2>&1; echo "$t exit $? at $(( $(date +%s) - START )) s" | tee -a $L/tests-A.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-A.log | tail -3 | tee -a $L/tests-A.log
done
date -u >> $L/device-A.txt
tar czf $OUT/logs-A.tar.gz -C $L .
