#!/bin/bash
# Run 53 call E (H200): where the consumers' step goes (calls B and D: at
# M = 16 to 64 on 28672 x 8192 the step is the MMA warpgroups', 0.75,
# 0.96 and 1.13 µs). ncu of HEAD's (7452670) kernels as the library picks
# them there, one launch each: version 23 at M = 16, 24 at 32, 19 at 64
# (bf16, symmetric, G = 128): warp states, schedulers, the sampled stalls
# by SASS line, memory workload. No prediction: a measurement for the
# next change of the step.
cd .carry
L=/tmp/logs && mkdir -p $L
export CUDA_CACHE_MAXSIZE=4294967296
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-E.txt
[ -x qk-base ] || { xz -dc qk-base.xz > qk-base && chmod +x qk-base; }
for c in "int4_linear_v23_bf16 16x28672x8192" "int4_linear_v24_bf16 32x28672x8192" "int4_linear_v19_bf16 64x28672x8192"; do
    set -- $c
    timeout 200 /usr/local/cuda/bin/ncu --section WarpStateStats --section SchedulerStats --section SourceCounters \
        --section MemoryWorkloadAnalysis --section LaunchStats -k regex:"^$1\$" -c 1 \
        ./qk-base bench --kernel "$1 $2 sym g128" --iters 1 > $L/ncu-E-$1.log 2>&1
    echo "ncu $c exit $?" | tee -a $L/device-E.txt
done
date -u >> $L/device-E.txt
tar czf $OUT/logs-E.tar.gz -C $L .
