#!/bin/bash
# Run 47 call E (H100): 3a56710, the review's last kernel change (the
# 16-row consumers' scale-after without a wait for MMAs that mma.sync has
# already completed; only versions 22 and 23 change). Every GPU test
# binary, beside compute-sanitizer racecheck, memcheck and synccheck of
# the ragged-tile test (every tiled version, split and unsplit), as call
# C's second half. No timings.
cd .carry && rm -rf tests && tar xJf t.tar.xz && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-E.txt
tests() {
  for t in int4_linear ptx int4_weights raw_launch graph add_mul_exp quantize_int8; do
    REQUIRE_GPU=1 timeout $(( 250 - ($(date +%s) - START) )) ./tests/$t > $L/tests-$t-E.log 2>&1; echo "$t exit $? at $(( $(date +%s) - START )) s" >> $L/tests-E.log
    grep -E "FAILED|failed|panicked|test result" $L/tests-$t-E.log | tail -3 >> $L/tests-E.log
  done
}
san() { # tool test
  REQUIRE_GPU=1 timeout $(( 250 - ($(date +%s) - START) )) compute-sanitizer --tool $1 ./tests/int4_linear --exact $2 > $L/sanitizer-$1-${2#gpu::}-E.log 2>&1
  echo "$1 $2 exit $? at $(( $(date +%s) - START )) s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test result' $L/sanitizer-$1-${2#gpu::}-E.log | tr '\n' ' ')" >> $L/sanitizers-E.log
}
tests &
{ san racecheck gpu::gemm_tiles_ragged; san memcheck gpu::gemm_tiles_ragged; san synccheck gpu::gemm_tiles_ragged; } &
wait
cat $L/tests-E.log $L/sanitizers-E.log
date -u >> $L/device-E.txt
tar czf $OUT/logs-E.tar.gz -C $L .
