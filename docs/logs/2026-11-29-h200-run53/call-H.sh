#!/bin/bash
# Run 53 call H (H200), the session's last device seconds: version 23 with
# four MMA warpgroups of one 64-row tile each in place of two of two
# (`wg4`, `v23-four-consumer-warpgroups.patch`: 768 threads a block, the
# consumers at 88 registers; version 22 alike), so that each scheduler has
# four consumer warps to hide latency with, not two (call G: no one stall
# reason, 0.64 instructions issued a cycle). Its SASS step loop: 182
# instructions a warp (16 MMAs) against 308 (32), so 18% more a scheduler;
# ptxas spills 32 bytes in the unsplit entry point (none in the loop).
# Against HEAD 7452670 (`base`), one round, bf16, symmetric, G = 128:
# version 23 at M = 16, split and not. Then wg4's ragged tile test.
# Predicted: 5-15% faster at the large shapes if latency is what holds the
# step; slower (by up to the 18%) if issue is.
cd .carry
L=$OUT && mkdir -p $L
START=$(date +%s); export START
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-H.txt
./device-ab.sh $L/ab-H.log 90 1 "_bf16 v23 b512 16x sym" base wg4
echo "A/B done at $(( $(date +%s) - START )) s" | tee -a $L/device-H.txt
xz -dc int4_linear-wg4.xz > t && chmod +x t && REQUIRE_GPU=1 timeout 40 ./t gpu::gemm_tiles_ragged > $L/tests-H.log 2>&1
echo "wg4 gemm_tiles_ragged exit $?: $(grep 'test result' $L/tests-H.log)" | tee -a $L/device-H.txt
