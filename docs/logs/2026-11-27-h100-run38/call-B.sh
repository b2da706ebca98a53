#!/bin/bash
# Run 38 call B: the tiled GEMMs with two MMA groups left pending after each
# chunk instead of one (qk-deep, tests-deep: b55e3c6 with the probe's
# MMA_GROUPS_PENDING = 2 and the misaligned-outputs test). Its int4 linear
# GPU tests, memcheck and racecheck of the misaligned-outputs and ragged
# split-K tests; an A/B against b55e3c6 (qk-base), two rounds, alternating;
# then ncu of version 13 at 1024 x 4096 x 4096 in both builds.
cd .carry && rm -rf tests && tar xJf tests-deep.tar.xz && for b in base deep; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=$OUT
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-B.txt
REQUIRE_GPU=1 timeout 150 ./tests/int4_linear > $L/tests-int4_linear-B.log 2>&1; echo "int4_linear exit $?" | tee -a $L/tests-B.log
grep -E "FAILED|failed|panicked|test result" $L/tests-int4_linear-B.log | tail -3 | tee -a $L/tests-B.log
for c in "memcheck gpu::tiled_gemms_misaligned_outputs" "racecheck gpu::tiled_gemms_misaligned_outputs" "racecheck gpu::split_k_ragged"; do
  set -- $c
  REQUIRE_GPU=1 timeout 150 compute-sanitizer --tool $1 ./tests/int4_linear --exact $2 > $L/sanitizer-$1-${2#gpu::}-B.log 2>&1
  echo "$1 $2 exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test result' $L/sanitizer-$1-${2#gpu::}-B.log | tr '\n' ' ')" | tee -a $L/tests-B.log
done
date -u >> $L/device-B.txt
for round in 1 2; do
  for f in "1024x4096x4096 _bf16 v13" "8192x4096x4096 _bf16 v13" "1024x11008x4096 _bf16 v13" "8192x11008x4096 _bf16 v13" "1024x4096x11008 _bf16 v13" "1024x28672x8192 _bf16 v13" "256x4096x4096 _bf16 v12" "128x8192x28672 _bf16 v13" "128x4096x4096 _bf16 v19" "64x28672x8192 _bf16 v19" "16x28672x8192 _bf16 v23" "16x11008x4096 _bf16 v23" "16x8192x28672 _bf16 v22" "256x4096x4096 _bf16 v10"; do
    for b in base deep; do
      [ $(( $(date +%s) - START )) -gt 470 ] && break 3
      echo "### round $round $b $f" >> $L/ab-B.log
      timeout 60 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-B.log
    done
  done
done
date -u >> $L/device-B.txt
for b in base deep; do
  timeout 50 ncu --clock-control none -k int4_linear_v13_bf16 -c 1 --section SpeedOfLight --section WarpStateStats --section SchedulerStats --metrics sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum ./qk-$b bench --kernel "int4_linear_v13_bf16 1024x4096x4096" --iters 1 > $L/ncu-$b-B.log 2>&1
done
date -u >> $L/device-B.txt
