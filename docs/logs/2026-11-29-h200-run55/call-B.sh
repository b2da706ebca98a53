#!/bin/bash
# Run 55 call B (H200). `base` is 7cd5c66 (versions 23 and 24 with TMA
# activations, call A's tx24 with the same PTX).
# 1. `rows2` (producer-rows2.patch): half the producer threads fill the
#    stages, each storing the constants of two weight rows; the second
#    producer warpgroup only gives its registers back. Call A's `solo`
#    probe (producer thread 0 alone, no constants) was 8-15% faster on the
#    large shapes at 16 and 32 rows: the producers' per-warp instructions
#    (barrier waits and their spins, the loop, the window bookkeeping on
#    uniform registers) are paid by 4 warps instead of 8, while the
#    per-row constant work stays. ptxas: version 23 spills 4 bytes, 19 and
#    24 none (22, 12 and 13 spill more: not timed).
#    Predicted: 3-6% faster at M = 16 and 32 on the large shapes, 1-3% at
#    64 (version 19's producers also copy the codes with cp.async, now
#    twice as many a thread).
#    A/B against base, three rounds, bf16, G = 128: version 23 at M = 16,
#    24 at 32, 19 at 64; then rows2's int4 GPU tests.
# 2. Checks of base: memcheck, synccheck and (version 23's launches)
#    racecheck of gemm_tiles_ragged; synccheck and (version 24's)
#    racecheck of thirty_two_row_tile_ragged.
cd .carry
L=$OUT && mkdir -p $L
START=$(date +%s); export START
el() { echo $(( $(date +%s) - START )); }
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-B.txt
for r in 1 2 3; do
    ./device-ab.sh $L/ab-B.log 250 1 "_bf16 v23 16x" base rows2
    ./device-ab.sh $L/ab-B.log 250 1 "_bf16 v24 32x" rows2 base
    ./device-ab.sh $L/ab-B.log 250 1 "_bf16 v19 64x" base rows2
done
echo "A/B done at $(el) s" | tee -a $L/device-B.txt
./variant-tests.sh $L/device-B.txt int4_linear rows2
echo "rows2 tests done at $(el) s" | tee -a $L/device-B.txt
T=./int4_linear-base
xz -dc $T.xz > $T && chmod +x $T
export REQUIRE_GPU=1
check() { # tool test [filter...]
    local tool=$1 test=$2; shift 2
    local log=$L/sanitizer-$tool-$test${1:+-filtered}.log
    local left=$(( 580 - $(el) )); [ $left -gt 120 ] && left=120
    [ $left -lt 15 ] && { echo "$tool $test skipped at $(el) s" | tee -a $L/device-B.txt; return; }
    timeout $left compute-sanitizer --tool $tool "$@" $T --exact gpu::$test > $log 2>&1
    echo "$tool $test $* exit $? at $(el) s: $(grep -E 'SUMMARY|test result' $log | tr '\n' ' ')" | tee -a $L/device-B.txt
}
check memcheck gemm_tiles_ragged
check synccheck gemm_tiles_ragged
check synccheck thirty_two_row_tile_ragged
check racecheck thirty_two_row_tile_ragged --kernel-name kns=int4_linear_v24
check racecheck gemm_tiles_ragged --kernel-name kns=int4_linear_v23
date -u >> $L/device-B.txt
