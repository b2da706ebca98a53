#!/bin/bash
# Run 39 call A: 6170c65 (the tiled GEMMs' one TileOutput parameter; PTX
# differs from 30e328d's): every GPU test binary, then compute-sanitizer
# memcheck, synccheck and racecheck of the tiled GEMMs' tests, which had
# not run on 30e328d's final whole-line epilogue.
cd .carry && rm -rf tests && tar xJf t.tar.xz && L=$OUT
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-A.txt
for t in int4_linear int4_weights ptx raw_launch graph add_mul_exp quantize_int8; do
  REQUIRE_GPU=1 timeout 150 ./tests/$t > $L/tests-$t-A.log 2>&1; echo "$t exit $?" | tee -a $L/tests-A.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-A.log | tail -3 | tee -a $L/tests-A.log
done
date -u >> $L/device-A.txt
for c in "memcheck gpu::tiled_gemms_misaligned_outputs" "synccheck gpu::tiled_gemms_misaligned_outputs" "racecheck gpu::tiled_gemms_misaligned_outputs" \
         "memcheck gpu::split_k_ragged" "synccheck gpu::split_k_ragged" "memcheck gpu::tiled_gemms_many_tile_groups" \
         "synccheck gpu::tiled_gemms_many_tile_groups" "racecheck gpu::tiled_gemms_many_tile_groups" "memcheck gpu::gemm_tiles_ragged" \
         "racecheck gpu::gemm_tiles_ragged" "racecheck gpu::split_k_ragged"; do
  set -- $c
  LEFT=$(( 570 - ($(date +%s) - START) ))
  [ $LEFT -lt 30 ] && { echo "$1 $2 not run: out of time" | tee -a $L/tests-A.log; continue; }
  REQUIRE_GPU=1 timeout $LEFT compute-sanitizer --tool $1 ./tests/int4_linear --exact $2 > $L/sanitizer-$1-${2#gpu::}-A.log 2>&1
  echo "$1 $2 exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test result' $L/sanitizer-$1-${2#gpu::}-A.log | tr '\n' ' ')" | tee -a $L/tests-A.log
done
date -u >> $L/device-A.txt
