#!/bin/bash
# Run 44 call F (H100): 427ba2e, the session's last code commit (the
# review's refactor of the split model and the quantizer; kernels as
# cea4808): every GPU test of every test binary, then compute-sanitizer
# memcheck and synccheck of the ragged-tile test (every tiled version,
# split and unsplit, versions 12 and 13 among them) and memcheck,
# racecheck and synccheck of the version 17 block test.
cd .carry && rm -rf tests && tar xJf t.tar.xz && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-F.txt
for t in int4_linear int4_weights raw_launch graph ptx add_mul_exp quantize_int8; do
  REQUIRE_GPU=1 timeout 120 ./tests/$t > $L/tests-$t-F.log 2>&1; echo "$t exit $? at $(( $(date +%s) - START )) s" | tee -a $L/tests-F.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-F.log | tail -3 | tee -a $L/tests-F.log
  tar czf $OUT/logs-F.tar.gz -C $L .
done
san() { # tool test
  [ $(( $(date +%s) - START )) -gt 500 ] && { echo "$1 $2 not run: time" | tee -a $L/tests-F.log; return; }
  REQUIRE_GPU=1 timeout $(( 580 - ($(date +%s) - START) )) compute-sanitizer --tool $1 ./tests/int4_linear --exact $2 > $L/sanitizer-$1-${2#gpu::}-F.log 2>&1
  echo "$1 $2 exit $? at $(( $(date +%s) - START )) s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test result' $L/sanitizer-$1-${2#gpu::}-F.log | tr '\n' ' ')" | tee -a $L/tests-F.log
  tar czf $OUT/logs-F.tar.gz -C $L .
}
san memcheck gpu::gemm_tiles_ragged
san synccheck gpu::gemm_tiles_ragged
san memcheck gpu::v17_every_block_shape
san racecheck gpu::v17_every_block_shape
san synccheck gpu::v17_every_block_shape
date -u >> $L/device-F.txt
tar czf $OUT/logs-F.tar.gz -C $L .
