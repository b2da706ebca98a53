#!/bin/bash
# Run 50 call B (H200). Call A: without the L2 prefetch the loop's loads
# alone ran 5% faster on the large shapes (35.45 against 37.48 us at
# 1x28672x8192), the whole kernel 3-4% slower; the step-major order
# changed nothing. So the prefetch is worth having but costs the loads
# something. Builds against HEAD (`base`), version 17's `_m8_` blocks at
# M = 1, five shapes, both modes, two rounds in opposite orders:
#   pf1      prefetch-once-a-line.patch: each 128-byte line asked of the L2
#            once (lanes of even g) instead of twice
#   p1       prefetch-1.patch: one batch ahead instead of two
#   chains2  two-chains.patch: two accumulator chains a group (by MMA
#            half), for the arithmetic's dependent chains (run 20 on the
#            H100: 2.5% at 28672x8192 only)
# Predicted before the call: pf1 0-3% faster on the large shapes if the
# requests (not lines) cost the L2, else equal (the warp's requests to one
# line merged); p1 slower by about what nopf lost (1-3%); chains2 0-3%.
# Then the sanitizers of run 49's gap, on HEAD's int4_linear tests:
# memcheck and synccheck of gemm_tiles_ragged (racecheck ran in run 49),
# memcheck, racecheck and synccheck of v17_every_block_shape; and the
# int4_linear GPU tests of the chains2 build (a candidate to keep).
cd .carry && rm -rf tests && tar xJf t.tar.xz && L=/tmp/logs && mkdir -p $L
START=$(date +%s); export START
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-B.txt
xz -dc int4_linear-chains2.xz > int4_linear-chains2 && chmod +x int4_linear-chains2
export CUDA_CACHE_MAXSIZE=4294967296
REQUIRE_GPU=1 timeout 150 ./tests/int4_linear --exact gpu::empty_k_gives_bias > /tmp/warm-tests.log 2>&1 &
./device-ab.sh $L/ab-B.log 300 2 "int4_linear _m8_ _bf16 v17 1x" base pf1 p1 chains2
wait
tar czf $OUT/logs-B.tar.gz -C $L .
for t in "memcheck gemm_tiles_ragged" "synccheck gemm_tiles_ragged" "memcheck v17_every_block_shape" "racecheck v17_every_block_shape" "synccheck v17_every_block_shape"; do
  set -- $t
  REQUIRE_GPU=1 timeout 120 compute-sanitizer --tool $1 ./tests/int4_linear --exact gpu::$2 > $L/sanitizer-$1-$2-B.log 2>&1
  echo "$1 gpu::$2 exit $? at $(( $(date +%s) - START )) s: $(grep -E 'SUMMARY|test result' $L/sanitizer-$1-$2-B.log | tr '\n' ' ')" | tee -a $L/sanitizers-B.log
done
REQUIRE_GPU=1 timeout 200 ./int4_linear-chains2 > $L/tests-int4_linear-chains2-B.log 2>&1; echo "chains2 tests exit $? at $(( $(date +%s) - START )) s" | tee -a $L/sanitizers-B.log
tail -3 $L/tests-int4_linear-chains2-B.log
date -u >> $L/device-B.txt
tar czf $OUT/logs-B.tar.gz -C $L .
