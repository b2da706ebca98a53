#!/bin/bash
# Run 54 call A (H200): run 53's untimed experiment. `wg4b` is HEAD
# 4e95df9 with run 53's v23-v24-four-consumer-warpgroups.patch: versions
# 22/23 (16-row tiles) and 24 (32-row tiles) with four MMA warpgroups of
# one 64-row band each in place of two of two (768 threads a block). SASS
# step loop: v23 182 instructions a warp against 308, v24 224 against 369.
# 1. A/B against HEAD (`base`), three rounds, bf16, G = 128, both modes:
#    version 23 at M = 16 (split and not) and version 24 at M = 32.
#    Predicted: 5-15% faster on the large shapes if the step is latency-
#    bound (run 53 call G: no one stall reason, 0.54-0.64 issue/cycle);
#    at most 7% (M = 16) / 13% (M = 32) at 28672 x 8192 (run 53 call B's
#    112-block step against the 132-block one).
# 2. wg4b's int4 GPU tests, memcheck of its two ragged tile tests.
# 3. ncu source-level stall sampling of base and wg4b's version 23 at
#    16 x 28672 x 8192, to split producer from consumer stalls.
cd .carry
L=/tmp/logs && mkdir -p $L
START=$(date +%s); export START
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-A.txt
for r in 1 2 3; do
    ./device-ab.sh $L/ab-A.log 290 1 "_bf16 v23 16x" base wg4b
    ./device-ab.sh $L/ab-A.log 290 1 "_bf16 v24 32x" wg4b base
done
echo "A/B done at $(( $(date +%s) - START )) s" | tee -a $L/device-A.txt
./variant-tests.sh $L/device-A.txt int4_linear wg4b gpu::gemm_tiles_ragged gpu::thirty_two_row_tile_ragged
echo "tests done at $(( $(date +%s) - START )) s" | tee -a $L/device-A.txt
for b in base wg4b; do
    timeout 90 /usr/local/cuda/bin/ncu --section SourceCounters --section WarpStateStats -k regex:'^int4_linear_v23_bf16$' -c 1 \
        -o $L/ncu-src-$b ./qk-$b bench --kernel "int4_linear_v23_bf16 16x28672x8192 sym g128" --iters 1 > $L/ncu-src-$b.log 2>&1
    echo "ncu $b exit $?" | tee -a $L/device-A.txt
    timeout 60 /usr/local/cuda/bin/ncu --import $L/ncu-src-$b.ncu-rep --page source --csv --print-source sass > $L/ncu-src-$b.csv 2>&1
    echo "ncu source $b exit $? $(wc -c < $L/ncu-src-$b.csv) bytes" | tee -a $L/device-A.txt
done
date -u >> $L/device-A.txt
tar czf $OUT/logs-A.tar.gz -C $L .
