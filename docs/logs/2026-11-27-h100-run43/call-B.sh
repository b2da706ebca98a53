#!/bin/bash
# Run 43 call B (H100): the int4 linear and int4 weights tests of 1f98856
# (K = 0 no longer panics the quantizer; call A's one failure); `nosum`
# (probe-no-sums.patch: the decode loop without its activation sums' MMAs,
# wrong outputs) against base, graph-timed as call A; then `ncu` (raw
# metrics of SpeedOfLight, WarpStateStats, SchedulerStats,
# ComputeWorkloadAnalysis, InstructionStats, Occupancy) of base, loads and
# compute at 1x11008x4096 (the library's block: one group of two warps)
# and 1x28672x8192 (groups of one warp, 8 a block).
cd .carry && rm -rf tests && tar xJf t.tar.xz && for b in base loads compute nosum; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-B.txt
for t in int4_linear int4_weights; do
  REQUIRE_GPU=1 timeout 150 ./tests/$t > $L/tests-$t-B.log 2>&1; echo "$t exit $? at $(( $(date +%s) - START )) s" | tee -a $L/tests-B.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-B.log | tail -3 | tee -a $L/tests-B.log
done
tar czf $OUT/logs-B.tar.gz -C $L .
for b in base nosum base; do
  echo "### $b (at $(( $(date +%s) - START )) s)" >> $L/ab-B.log
  timeout 100 ./qk-$b bench --kernel "int4_linear _m8_ _bf16 v17 1x sym" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-B.log
  tar czf $OUT/logs-B.tar.gz -C $L .
done
profile() {
  [ $(( $(date +%s) - START )) -gt 540 ] && { echo "$1 $2 not run: time" >> $L/ncu-B.log; return; }
  echo "### $1 $2 $3 (at $(( $(date +%s) - START )) s)" >> $L/ncu-B.log
  timeout $(( 590 - ($(date +%s) - START) )) /usr/local/cuda/bin/ncu --clock-control none --page raw --section SpeedOfLight --section WarpStateStats \
    --section SchedulerStats --section ComputeWorkloadAnalysis --section InstructionStats --section Occupancy \
    -k regex:^$2$ -c 1 ./qk-$1 bench --kernel "$2 $3 sym" --iters 1 >> $L/ncu-B.log 2>&1
  tar czf $OUT/logs-B.tar.gz -C $L .
}
for b in base compute loads; do
  profile $b int4_linear_v17_m8_w2_g128_bf16 "groups 1 1x11008x4096"
  profile $b int4_linear_v17_m8_w1_g128_bf16 "groups 8 1x28672x8192"
done
date -u >> $L/device-B.txt
tar czf $OUT/logs-B.tar.gz -C $L .
