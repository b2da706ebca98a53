#!/bin/bash
# Run 41 call C: 9a4c655 (the tiled GEMMs' consumers release a tile's
# last stage through `Feed::release`; `Epilogue::write` reads the bias
# through `bias_at`; the decode loop as 5590070): the int4 linear, PTX,
# raw-launch and graph GPU tests; compute-sanitizer on the decode GEMV's
# block test and on the tiled GEMMs' ragged and misaligned-output tests.
cd .carry && rm -rf tests && tar xJf t.tar.xz && xz -dc quant-kernels.xz > quant-kernels && chmod +x quant-kernels && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-C.txt
for t in int4_linear ptx raw_launch graph; do
  REQUIRE_GPU=1 timeout 150 ./tests/$t > $L/tests-$t-C.log 2>&1; echo "$t exit $?" | tee -a $L/tests-C.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-C.log | tail -3 | tee -a $L/tests-C.log
done
sanitize() {
  LEFT=$(( 585 - ($(date +%s) - START) ))
  [ $LEFT -lt 30 ] && { echo "$1 $2 not run: out of time" | tee -a $L/tests-C.log; return; }
  REQUIRE_GPU=1 timeout $LEFT compute-sanitizer --tool $1 ./tests/int4_linear --exact $2 > $L/sanitizer-$1-${2#gpu::}-C.log 2>&1
  echo "$1 $2 exit $? (limit $LEFT s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test result' $L/sanitizer-$1-${2#gpu::}-C.log | tr '\n' ' ')" | tee -a $L/tests-C.log
  tar czf $OUT/logs-C.tar.gz -C $L .
}
sanitize memcheck gpu::v17_every_block_shape
sanitize racecheck gpu::v17_every_block_shape
sanitize memcheck gpu::gemm_tiles_ragged
sanitize racecheck gpu::gemm_tiles_ragged
sanitize synccheck gpu::gemm_tiles_ragged
sanitize memcheck gpu::tiled_gemms_misaligned_outputs
sanitize synccheck gpu::v17_every_block_shape
date -u >> $L/device-C.txt
tar czf $OUT/logs-C.tar.gz -C $L .
