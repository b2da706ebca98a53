#!/bin/bash
# Run 44 call B (H100): call A's probe again, its two faults mended
# (probe-shared-tails-B.patch): the report's workspace now has the two
# slices (call A's shared-tails cases failed to launch), and the tile walk
# compiles as before where no tails can be (unsplit entry points) and
# without division calls (call A's build was 2-8% slower everywhere).
# `base` is dc8ae46, `tails` the probe build; QK_PROBE_TAILS=T launches an
# unsplit v12/v19/v22/v23 plan as heads and T shared tails. Two rounds in
# opposite orders; then the int4 linear and raw-launch GPU tests.
cd .carry && rm -rf tests && tar xJf t.tar.xz && for b in base tails; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-B.txt
run() { # binary tails filter
  [ $(( $(date +%s) - START )) -gt 440 ] && { echo "$1 T=$2 $3 not run: time" >> $L/ab-B.log; return; }
  echo "### $1 T=$2 $3 (at $(( $(date +%s) - START )) s)" >> $L/ab-B.log
  QK_PROBE_TAILS=$2 timeout 100 ./qk-$1 bench --kernel "int4_linear $3" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -v "smaller  error" >> $L/ab-B.log
  tar czf $OUT/logs-B.tar.gz -C $L .
}
TAILS="16x28672x8192 _bf16 v23|64x28672x8192 _bf16 v19|32x28672x8192 _bf16 v19|128x28672x8192 _bf16 v12"
SAME="1024x11008x4096 _bf16 v13|128x28672x8192 _bf16 v13|16x11008x4096 _bf16 v23|64x4096x11008 _bf16 v19|16x8192x28672 _bf16 v23"
for round in 1 2; do
  order="base:0 tails:0 tails:20 tails:16 tails:12"; [ $round = 2 ] && order="tails:12 tails:16 tails:20 tails:0 base:0"
  for bt in $order; do
    IFS='|'; for f in $TAILS; do unset IFS; run ${bt%:*} ${bt#*:} "$f"; done; unset IFS
  done
  for b in base tails; do [ $round = 2 ] && b=$([ $b = base ] && echo tails || echo base)
    IFS='|'; for f in $SAME; do unset IFS; run $b 0 "$f"; done; unset IFS
  done
done
for t in int4_linear raw_launch; do
  REQUIRE_GPU=1 timeout 100 ./tests/$t > $L/tests-$t-B.log 2>&1; echo "$t exit $? at $(( $(date +%s) - START )) s" | tee -a $L/tests-B.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-B.log | tail -3 | tee -a $L/tests-B.log
done
date -u >> $L/device-B.txt
tar czf $OUT/logs-B.tar.gz -C $L .
