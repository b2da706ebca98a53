#!/bin/bash
# Run 53 call G (H200): the stall reasons behind call E's issue rates
# (an instruction every 1.56-1.85 cycles a scheduler): ncu's warp stall
# reasons per issued instruction, averaged over the block's warps
# (producers and consumers together), for HEAD's (7452670) versions 23 at
# 16 x 28672 x 8192, 24 at 32 and 19 at 64 (bf16, symmetric, G = 128), one
# launch each. No prediction: a measurement for the next change of the step.
cd .carry
L=/tmp/logs && mkdir -p $L
export CUDA_CACHE_MAXSIZE=4294967296
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-G.txt
[ -x qk-base ] || { xz -dc qk-base.xz > qk-base && chmod +x qk-base; }
for c in "int4_linear_v23_bf16 16x28672x8192" "int4_linear_v24_bf16 32x28672x8192" "int4_linear_v19_bf16 64x28672x8192"; do
    set -- $c
    timeout 100 /usr/local/cuda/bin/ncu --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio" \
        -k regex:"^$1\$" -c 1 ./qk-base bench --kernel "$1 $2 sym g128" --iters 1 > $L/ncu-G-$1.log 2>&1
    echo "ncu $c exit $?" | tee -a $L/device-G.txt
done
date -u >> $L/device-G.txt
tar czf $OUT/logs-G.tar.gz -C $L .
