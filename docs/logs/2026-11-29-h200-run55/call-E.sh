#!/bin/bash
# Run 55 call E (H200): call B's rows2, per version (`rows`,
# producer-rows-per-version.patch on f893be1): a `ROWS` const generic
# through `pipeline`, 2 for versions 19 and 24 (call B's rows2 for them),
# 1 for the others, whose PTX moved a little (version 23's SASS the same
# 2472 instructions; version 12's 2 more local accesses outside its MMA
# loop, 4 bytes over its spill budget).
# Predicted: versions 24 and 19 as call B's rows2 (0.5-3.7% faster),
# versions 23, 22 and 12 within 0.5% of base.
# 1. A/B against f893be1 (`base`), two rounds, bf16, G = 128.
# 2. rows' int4 GPU tests; memcheck, synccheck and racecheck (the
#    version's launches) of the 32- and 64-row tile tests.
cd .carry
L=$OUT && mkdir -p $L
START=$(date +%s); export START
el() { echo $(( $(date +%s) - START )); }
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-E.txt
for r in 1 2; do
    ./device-ab.sh $L/ab-E.log 260 1 "_bf16 v24 32x" base rows
    ./device-ab.sh $L/ab-E.log 260 1 "_bf16 v19 64x" rows base
    ./device-ab.sh $L/ab-E.log 260 1 "_bf16 v23 16x" base rows
    ./device-ab.sh $L/ab-E.log 260 1 "_bf16 v22 16x" rows base
    ./device-ab.sh $L/ab-E.log 260 1 "_bf16 v12 128x" base rows
done
echo "A/B done at $(el) s" | tee -a $L/device-E.txt
./variant-tests.sh $L/device-E.txt int4_linear rows
echo "tests done at $(el) s" | tee -a $L/device-E.txt
T=./int4_linear-rows
export REQUIRE_GPU=1
for t in thirty_two_row_tile_ragged:v24 sixty_four_row_tile_ragged:v19; do
    test=${t%:*} v=${t#*:}
    for tool in memcheck synccheck racecheck; do
        filter=(); [ $tool = racecheck ] && filter=(--kernel-name kns=int4_linear_$v)
        log=$L/sanitizer-$tool-$test-rows.log
        left=$(( 430 - $(el) )); [ $left -gt 90 ] && left=90
        [ $left -lt 10 ] && { echo "$tool $test skipped" | tee -a $L/device-E.txt; continue; }
        timeout $left compute-sanitizer --tool $tool "${filter[@]}" $T --exact gpu::$test > $log 2>&1
        echo "$tool $test exit $? at $(el) s: $(grep -E 'SUMMARY|test result|Internal' $log | tr '\n' ' ')" | tee -a $L/device-E.txt
    done
done
date -u >> $L/device-E.txt
