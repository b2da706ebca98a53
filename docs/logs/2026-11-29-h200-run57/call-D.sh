#!/bin/bash
# Run 57 call D (H200): the final HEAD (613eaa9: call C's kernels, byte-
# identical PTX, with the planner that takes version 13 where it took
# version 12 from M = 128).
# 1. Versions 12 and 13 (each with the splits the report runs) at the
#    two split cases the planner moved, three rounds alternating.
#    Predicted: version 13 1.5-2% faster at both (call C: 27.63 against
#    28.20 at 128 x 11008 x 4096, 22.83 against 23.20 at 256 x 4096 x 4096).
# 2. The int4_linear, raw_launch, graph, int4_weights and ptx test binaries.
cd .carry && tar xJf t.tar.xz
L=$OUT && mkdir -p $L
START=$(date +%s); export START
el() { echo $(( $(date +%s) - START )); }
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-D.txt
export REQUIRE_GPU=1 CUDA_CACHE_MAXSIZE=4294967296
for r in 1 2 3; do
    for v in v12 v13; do
        ./device-ab.sh $L/ab-D.log 150 1 "128x11008x4096 sym g128 _bf16 $v" head
        ./device-ab.sh $L/ab-D.log 160 1 "256x4096x4096 sym g128 _bf16 $v" head
    done
done
echo "A/B done at $(el) s" | tee -a $L/device-D.txt
for t in int4_linear raw_launch graph int4_weights ptx; do
    left=$(( 280 - $(el) )); [ $left -lt 10 ] && { echo "$t skipped" | tee -a $L/device-D.txt; continue; }
    timeout $left tests/$t > $L/tests-$t.log 2>&1
    echo "$t exit $? at $(el) s: $(grep -E 'test result|FAILED' $L/tests-$t.log | tr '\n' ' ')" | tee -a $L/device-D.txt
done
cd $L && tar cJf logs-D.tar.xz tests-*.log && rm tests-*.log
date -u >> $L/device-D.txt
