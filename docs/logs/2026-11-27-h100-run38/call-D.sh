#!/bin/bash
# Run 38 call D: the shipped build (call C's library; its int4 linear test
# binary with the final doc comment of the misaligned-outputs test):
# racecheck and synccheck of the tiled GEMMs' tests on run 36's tile
# order, which no sanitizer but memcheck had seen; then ncu's stall
# reasons of version 13 at 8192 x 4096 x 4096, for the next attempt at
# the large-M step.
cd .carry && rm -rf tests && tar xJf tests-final.tar.xz && xz -dc quant-kernels.xz > quant-kernels && chmod +x quant-kernels && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-D.txt
REQUIRE_GPU=1 timeout 150 ./tests/int4_linear gpu::tiled > $L/tests-tiled-D.log 2>&1; echo "tiled tests exit $?: $(grep 'test result' $L/tests-tiled-D.log)" | tee -a $L/tests-D.log
for c in "racecheck gpu::tiled_gemms_misaligned_outputs" "synccheck gpu::tiled_gemms_misaligned_outputs" "racecheck gpu::tiled_gemms_many_tile_groups" "synccheck gpu::tiled_gemms_many_tile_groups" "racecheck gpu::gemm_tiles_ragged"; do
  set -- $c
  REQUIRE_GPU=1 timeout 240 compute-sanitizer --tool $1 ./tests/int4_linear --exact $2 > $L/sanitizer-$1-${2#gpu::}-D.log 2>&1
  echo "$1 $2 exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test result' $L/sanitizer-$1-${2#gpu::}-D.log | tr '\n' ' ')" | tee -a $L/tests-D.log
done
date -u >> $L/device-D.txt
timeout 120 ncu --clock-control none -k int4_linear_v13_bf16 -c 1 --section SpeedOfLight --metrics "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__warps_active.avg.per_cycle_active,regex:smsp__average_warps_issue_stalled_.*_per_issue_active.ratio" ./quant-kernels bench --kernel "int4_linear_v13_bf16 8192x4096x4096" --iters 1 > $L/ncu-v13-D.log 2>&1
echo "ncu exit $?"
date -u >> $L/device-D.txt
