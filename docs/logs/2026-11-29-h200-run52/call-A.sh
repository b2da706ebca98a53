#!/bin/bash
# Run 52 call A (H200): version 24 (the 32-row tile, 0327715: `new`) with
# mma.sync consumers against warpgroup MMAs (m64n32k16, `wgmma`) and
# without the constant windows (`nowin`), at M = 32 (two rounds, bf16,
# symmetric, G = 128, the report's five shapes); version 19 in the same
# build at M = 32 and 64, and version 24 at 64 (two tiles), one round.
# Then the int4 linear GPU tests of `new`, and compute-sanitizer memcheck,
# racecheck and synccheck of its new test of the tile alone.
# Predicted before the call: version 24 1.2-1.3x faster than version 19 at
# M = 32 on the large shapes (28672 x 8192: 74.6 -> 55-60 µs), the wgmma
# build slower than mma.sync (as at 16 rows, run 47: 2-7%), nowin within
# 1% but at 8192 x 28672 (windows on its long rows: 1-5% faster with them);
# every test passes, the sanitizers are clean.
cd .carry
L=/tmp/logs && mkdir -p $L
START=$(date +%s); export START
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-A.txt
./device-ab.sh $L/ab-A.log 230 2 "int4_linear _bf16 v24 32x" new wgmma nowin
./device-ab.sh $L/ab-A.log 290 1 "int4_linear _bf16 v19 32x" new
./device-ab.sh $L/ab-A.log 320 1 "int4_linear _bf16 64x v19" new
./device-ab.sh $L/ab-A.log 350 1 "int4_linear _bf16 64x v24" new
echo "A/B done at $(( $(date +%s) - START )) s" | tee -a $L/device-A.txt
T=gpu::thirty_two_row_tile_ragged
./variant-tests.sh $L/device-A.txt int4_linear new $T
for tool in racecheck synccheck; do
    timeout 90 compute-sanitizer --tool $tool ./int4_linear-new --exact $T > $L/sanitizer-$tool-A.log 2>&1
    echo "$tool exit $? at $(( $(date +%s) - START )) s: $(grep -E 'SUMMARY|test result' $L/sanitizer-$tool-A.log | tr '\n' ' ')" | tee -a $L/device-A.txt
done
date -u >> $L/device-A.txt
tar czf $OUT/logs-A.tar.gz -C $L .
