#!/bin/bash
# Run 43 call A (H100): the current build's GPU tests (every test binary);
# compute-sanitizer on the H100 of the decode GEMV's block test and the
# tiled GEMMs' ragged and misaligned-output tests (run 41 ran them on an
# H200 only); then the decode loop's two probes against the shipped build
# (base, 551043c): `loads` (probe-loads-only.patch: every load of the
# loop, no MMA or FMA) and `compute` (probe-compute-only.patch: the whole
# loop, every batch reloading the warp's first batch, L1 hits). Version
# 17's `_m8_` blocks at M = 1, bf16, symmetric, the five shapes.
cd .carry && rm -rf tests && tar xJf t.tar.xz && for b in base loads compute; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-A.txt
for t in int4_linear int4_weights ptx raw_launch graph add_mul_exp quantize_int8; do
  REQUIRE_GPU=1 timeout 150 ./tests/$t > $L/tests-$t-A.log 2>&1; echo "$t exit $? at $(( $(date +%s) - START )) s" | tee -a $L/tests-A.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-A.log | tail -3 | tee -a $L/tests-A.log
done
tar czf $OUT/logs-A.tar.gz -C $L .
sanitize() {
  LEFT=$(( 590 - ($(date +%s) - START) ))
  [ $LEFT -lt 30 ] && { echo "$1 $2 not run: out of time" | tee -a $L/tests-A.log; return; }
  REQUIRE_GPU=1 timeout $LEFT compute-sanitizer --tool $1 ./tests/int4_linear --exact $2 > $L/sanitizer-$1-${2#gpu::}-A.log 2>&1
  echo "$1 $2 exit $? (limit $LEFT s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test result' $L/sanitizer-$1-${2#gpu::}-A.log | tr '\n' ' ')" | tee -a $L/tests-A.log
  tar czf $OUT/logs-A.tar.gz -C $L .
}
sanitize memcheck gpu::v17_every_block_shape
sanitize racecheck gpu::v17_every_block_shape
sanitize synccheck gpu::v17_every_block_shape
sanitize memcheck gpu::gemm_tiles_ragged
sanitize synccheck gpu::gemm_tiles_ragged
sanitize memcheck gpu::tiled_gemms_misaligned_outputs
sanitize racecheck gpu::gemm_tiles_ragged
unset REQUIRE_GPU
for b in base loads compute; do
  [ $(( $(date +%s) - START )) -gt 500 ] && { echo "$b not run: time" >> $L/ab-A.log; continue; }
  echo "### $b (at $(( $(date +%s) - START )) s)" >> $L/ab-A.log
  timeout $(( 590 - ($(date +%s) - START) )) ./qk-$b bench --kernel "int4_linear _m8_ _bf16 v17 1x sym" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-A.log
  tar czf $OUT/logs-A.tar.gz -C $L .
done
date -u >> $L/device-A.txt
tar czf $OUT/logs-A.tar.gz -C $L .
