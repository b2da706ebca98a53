#!/bin/bash
# Run 57 call E (H200): what sets version 13's step at M = 128, where
# 128 x 28672 x 8192 is at 1.29x cuBLAS (target 1.3x): ncu of HEAD's
# (613eaa9) version 13 there (one launch: 112 blocks in 56 clusters, 64
# steps, 1.49 µs a step), and version 19's two 64-row tiles at the same
# shape (124 µs in call C) to compare: speed of light, compute workload
# (the tensor pipe's share), warp states and schedulers, then the stall
# reasons per issued instruction. No prediction: a measurement for the
# next change of the step.
cd .carry && xz -dc qk-head.xz > qk-head && chmod +x qk-head
L=/tmp/logs && mkdir -p $L
export CUDA_CACHE_MAXSIZE=4294967296
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-E.txt
for c in "int4_linear_v13_bf16 128x28672x8192" "int4_linear_v19_bf16 128x28672x8192"; do
    set -- $c
    timeout 60 /usr/local/cuda/bin/ncu --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats \
        --section SchedulerStats --section LaunchStats -k regex:"^$1\$" -c 1 \
        ./qk-head bench --kernel "$1 $2 sym g128" --iters 1 > $L/ncu-E-$1.log 2>&1
    echo "ncu sections $c exit $?" | tee -a $L/device-E.txt
    timeout 40 /usr/local/cuda/bin/ncu --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active" \
        -k regex:"^$1\$" -c 1 ./qk-head bench --kernel "$1 $2 sym g128" --iters 1 > $L/ncu-E-stalls-$1.log 2>&1
    echo "ncu stalls $c exit $?" | tee -a $L/device-E.txt
done
date -u >> $L/device-E.txt
tar czf $OUT/logs-E.tar.gz -C $L .
