#!/bin/bash
# Run 57 call B (H200): packed constants of symmetric layers as scales
# alone (`symscale`, symmetric-scales.patch on 536ff57): 2 bytes a row
# and group in place of 4 (the zero point is 8 everywhere), so a step's
# bulk copy brings 512 bytes, not 1 KB, and the consumers' offset is a
# constant. Run 56's packed constants had made the symmetric layers read
# 1/16 of the codes' bytes of constants where the producers' conversion
# read 1/32 (the f16 scales, once each through L2): 11008 x 4096 at 16
# and 32 rows lost 1.8-3.2%, about that 3% of the bytes.
# Predicted: symmetric cases of versions 23 (M = 16), 24 (M = 32) and 19
# (M = 64) 1-3% faster, most at 11008 x 4096 and where the call is
# closest to the copy bandwidth; asymmetric cases (the same words as
# before) within 0.5%.
# 1. A/B base (536ff57) against symscale, three rounds, bf16, G = 128.
# 2. symscale's int4_linear, int4_weights and raw_launch tests (raw_launch
#    also the first GPU run of 536ff57's version 13 plan through cudarc);
#    memcheck of the 16-, 32- and 64-row tile tests and gemm_tiles_ragged,
#    racecheck (versions 23 and 19) of the 16- and 64-row tile tests.
cd .carry
L=$OUT && mkdir -p $L
START=$(date +%s); export START
el() { echo $(( $(date +%s) - START )); }
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-B.txt
export REQUIRE_GPU=1 CUDA_CACHE_MAXSIZE=4294967296
for r in 1 2 3; do
    ./device-ab.sh $L/ab-B.log 220 1 "16x _bf16 v23 g128" base symscale
    ./device-ab.sh $L/ab-B.log 230 1 "32x _bf16 v24 g128" base symscale
    ./device-ab.sh $L/ab-B.log 240 1 "64x _bf16 v19 g128" base symscale
done
echo "A/B done at $(el) s" | tee -a $L/device-B.txt
for t in int4_linear int4_weights raw_launch; do
    xz -dc $t-symscale.xz > $t && chmod +x $t
    timeout 100 ./$t > $L/tests-$t-symscale.log 2>&1
    echo "$t exit $? at $(el) s: $(grep -E 'test result|FAILED' $L/tests-$t-symscale.log | tr '\n' ' ')" | tee -a $L/device-B.txt
done
for run in memcheck:sixteen_row_tile_ragged memcheck:thirty_two_row_tile_ragged memcheck:sixty_four_row_tile_ragged \
           memcheck:gemm_tiles_ragged racecheck:sixteen_row_tile_ragged:v23 racecheck:sixty_four_row_tile_ragged:v19; do
    IFS=: read tool test version <<< "$run"
    filter=(); [ -n "$version" ] && filter=(--kernel-name kns=int4_linear_$version)
    log=$L/sanitizer-$tool-$test-symscale.log
    left=$(( 560 - $(el) )); [ $left -lt 20 ] && { echo "$tool $test skipped" | tee -a $L/device-B.txt; continue; }
    timeout $left compute-sanitizer --tool $tool "${filter[@]}" ./int4_linear --exact gpu::$test > $log 2>&1
    echo "$tool $test exit $? at $(el) s: $(grep -E 'SUMMARY|test result|Internal' $log | tr '\n' ' ')" | tee -a $L/device-B.txt
done
cd $L && tar cJf logs-B.tar.xz tests-*.log sanitizer-*.log && rm tests-*.log sanitizer-*.log
date -u >> $L/device-B.txt
