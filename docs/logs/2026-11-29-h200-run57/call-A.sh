#!/bin/bash
# Run 57 call A (H200): run 56's host-only changes on a GPU, and version
# 13 on version 23's feed.
# 1. A/B, base (HEAD 9ec116a) against v13tma (v13-tensor-map-copies.patch
#    of run 56: version 13's codes by the TMA unit, version 23's map, its
#    activations by cluster multicast as before; at G = 128 the packed
#    constants by one bulk copy a step from producer thread 0 alone),
#    symmetric bf16, M = 128 and 256, three rounds.
#    Predicted: 1-4% faster at M = 128 and 256 on the large shapes (as
#    version 19 gained 3.9-11.8% at M = 128 from the same change, but
#    version 13's 128 accumulators a thread make its consumers the
#    bottleneck more than its producers), within 1% at 4096 x 4096.
# 2. HEAD's test binaries (int4_linear with the new 128-row tile test,
#    raw_launch, int4_weights, ptx, graph, add_mul_exp, quantize_int8);
#    memcheck, synccheck and racecheck (version 13's launches) of
#    hundred_twenty_eight_row_tile_ragged.
# 3. v13tma's int4 tests and the same three sanitizer runs.
cd .carry && tar xJf t.tar.xz
L=$OUT && mkdir -p $L
START=$(date +%s); export START
el() { echo $(( $(date +%s) - START )); }
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-A.txt
export REQUIRE_GPU=1 CUDA_CACHE_MAXSIZE=4294967296
for r in 1 2 3; do
    ./device-ab.sh $L/ab-A.log 230 1 "128x _bf16 v13 sym" base v13tma
    ./device-ab.sh $L/ab-A.log 250 1 "256x _bf16 v13 sym" base v13tma
done
echo "A/B done at $(el) s" | tee -a $L/device-A.txt
sanitize() { # binary name
    for tool in memcheck synccheck racecheck; do
        filter=(); [ $tool = racecheck ] && filter=(--kernel-name kns=int4_linear_v13)
        log=$L/sanitizer-$tool-hundred_twenty_eight_row_tile_ragged-$2.log
        timeout 80 compute-sanitizer --tool $tool "${filter[@]}" $1 --exact gpu::hundred_twenty_eight_row_tile_ragged > $log 2>&1
        echo "$tool ($2) exit $? at $(el) s: $(grep -E 'SUMMARY|test result|Internal' $log | tr '\n' ' ')" | tee -a $L/device-A.txt
    done
}
for t in int4_linear raw_launch int4_weights ptx graph add_mul_exp quantize_int8; do
    timeout 120 tests/$t > $L/tests-$t.log 2>&1
    echo "$t exit $? at $(el) s: $(grep -E 'test result' $L/tests-$t.log)" | tee -a $L/device-A.txt
done
sanitize tests/int4_linear head
T=./int4_linear-v13tma
xz -dc $T.xz > $T && chmod +x $T
timeout 100 $T > $L/tests-int4_linear-v13tma.log 2>&1
echo "v13tma tests exit $? at $(el) s: $(grep -E 'test result|FAILED' $L/tests-int4_linear-v13tma.log | tr '\n' ' ')" | tee -a $L/device-A.txt
sanitize $T v13tma
cd $L && tar cJf logs-A.tar.xz tests-*.log sanitizer-*.log && rm tests-*.log sanitizer-*.log
date -u >> $L/device-A.txt
