#!/bin/bash
# Run 58 call B (H200).
# 1. How many clusters of two of version 13's blocks the H200 runs at once
#    (cudaOccupancyMaxActiveClusters; .carry/clusters.cu): run 58 call A
#    found version 12 (no cluster) 2.8-4.6% faster than version 13 in
#    split calls of 128 blocks at M = 128, which fewer than 66 clusters at
#    once would explain (a second wave).
# 2. A/B, head (171f17a: version 12 on version 13's feed) against g128
#    (v12-v13-g128-packed-constants.patch: `_g128_` entry points of
#    versions 12 and 13, whose step is always one group: the producers'
#    thread 0 brings the packed constants with one bulk copy a step, the
#    other 255 producer threads stop, the consumers read a row's
#    constants once a step: 20 shared loads a step against 32, 393
#    instructions in version 13's loop against 403), bf16 G = 128, M =
#    128 and 256, two rounds.
#    Predicted: 1-4% faster at M = 128 and 256 (the producers issued 22%
#    of the instructions of version 13 at 128 x 28672 x 8192, call A's
#    ncu, and the consumers stalled 17% of their samples on dispatch);
#    with zero points about the same.
# 3. g128's int4_linear tests; memcheck, racecheck and synccheck of the
#    128-row tile tests (versions 13 and 12, every G, both modes).
cd .carry
L=$OUT && mkdir -p $L
START=$(date +%s); export START
el() { echo $(( $(date +%s) - START )); }
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-B.txt
export REQUIRE_GPU=1 CUDA_CACHE_MAXSIZE=4294967296
/usr/local/cuda/bin/nvcc -arch=sm_90a -o clusters clusters.cu && ./clusters | tee -a $L/device-B.txt
for r in 1 2; do
    ./device-ab.sh $L/ab-B.log 230 1 "128x _bf16 v13 sym g128" head g128
    ./device-ab.sh $L/ab-B.log 230 1 "128x _bf16 v13 asym g128" head g128
    ./device-ab.sh $L/ab-B.log 230 1 "128x _bf16 v12 sym g128" head g128
    ./device-ab.sh $L/ab-B.log 230 1 "256x _bf16 v13 sym g128" head g128
done
echo "A/B done at $(el) s" | tee -a $L/device-B.txt
./variant-tests.sh $L/device-B.txt int4_linear g128 gpu::hundred_twenty_eight_row_tile_ragged \
    racecheck:gpu::hundred_twenty_eight_row_tile_ragged synccheck:gpu::hundred_twenty_eight_row_tile_ragged \
    racecheck:gpu::unclustered_hundred_twenty_eight_row_tile_ragged
echo "sanitizers done at $(el) s" | tee -a $L/device-B.txt
cd $L && tar cJf logs-B.tar.xz tests-*.log sanitizer-*.log && rm tests-*.log sanitizer-*.log
date -u >> $L/device-B.txt
