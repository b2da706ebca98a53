#!/bin/bash
# Run 45 call E (H100): call D's report had the largest calls (M = 8192)
# 1.5-5% slower than run 44's; the change adds one prefetch a block there.
# A/B of `base` (1064f57) and `prefetch` (e7c8e72) on the library's picks
# at M = 8192 on 28672 x 8192 and 11008 x 4096, two rounds in opposite
# orders. Then the add_mul_exp and quantize GPU tests of e7c8e72 (call D
# ran the other five binaries), compute-sanitizer memcheck and synccheck
# of the ragged-tile test (every tiled version, split and unsplit), and
# racecheck of it as time allows.
cd .carry && rm -rf tests && tar xJf t.tar.xz && for b in base prefetch; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-E.txt
for b in base prefetch prefetch base; do
  for f in "8192x28672x8192 _bf16 v13" "8192x11008x4096 _bf16 v12"; do
    echo "### $b $f (at $(( $(date +%s) - START )) s)" >> $L/ab-E.log
    timeout 100 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-E.log
  done
  tar czf $OUT/logs-E.tar.gz -C $L .
done
for t in add_mul_exp quantize_int8; do
  REQUIRE_GPU=1 timeout 100 ./tests/$t > $L/tests-$t-E.log 2>&1; echo "$t exit $? at $(( $(date +%s) - START )) s" | tee -a $L/tests-E.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-E.log | tail -3 | tee -a $L/tests-E.log
  tar czf $OUT/logs-E.tar.gz -C $L .
done
san() { # tool test latest-start
  [ $(( $(date +%s) - START )) -gt $3 ] && { echo "$1 $2 not run: time" | tee -a $L/tests-E.log; return; }
  REQUIRE_GPU=1 timeout $(( 560 - ($(date +%s) - START) )) compute-sanitizer --tool $1 ./tests/int4_linear --exact $2 > $L/sanitizer-$1-${2#gpu::}-E.log 2>&1
  echo "$1 $2 exit $? at $(( $(date +%s) - START )) s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test result' $L/sanitizer-$1-${2#gpu::}-E.log | tr '\n' ' ')" | tee -a $L/tests-E.log
  tar czf $OUT/logs-E.tar.gz -C $L .
}
san memcheck gpu::gemm_tiles_ragged 480
san synccheck gpu::gemm_tiles_ragged 500
san racecheck gpu::gemm_tiles_ragged 360
date -u >> $L/device-E.txt
tar czf $OUT/logs-E.tar.gz -C $L .
