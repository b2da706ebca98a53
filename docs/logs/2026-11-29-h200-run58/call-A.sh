#!/bin/bash
# Run 58 call A (H200).
# 1. A/B, base (HEAD 24981a5: run 57's kernels, PTX byte-identical, with
#    the launch's one not-on-device error) against v12tma
#    (docs/logs/2026-11-29-h200-run58/v12-tensor-map-copies.patch: version
#    12 = TensorMapGemm<64, 1, 1>, version 13 without its cluster: codes
#    and activations by the TMA unit), versions 12 and 13 at M = 128 and
#    256, symmetric bf16 G = 128, two rounds.
#    Predicted: v12tma's version 12 3-7% faster than base's; against
#    version 13 within 2% at M = 128, slower at 256 where the
#    activations' L2 traffic counts more.
# 2. base's int4_linear, raw_launch and graph tests (the launch path
#    changed); v12tma's int4_linear tests, memcheck of gemm_tiles_ragged,
#    racecheck and synccheck of the new version 12 tile test.
# 3. ncu source counters of base's version 13 at 128 x 28672 x 8192
#    (1.29x cuBLAS, target 1.3x): which role's instructions stall, on
#    what. No prediction: it picks the next change.
cd .carry
L=$OUT && mkdir -p $L
START=$(date +%s); export START
el() { echo $(( $(date +%s) - START )); }
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-A.txt
export REQUIRE_GPU=1 CUDA_CACHE_MAXSIZE=4294967296
for r in 1 2; do
    for m in 128 256; do
        for v in v12 v13; do
            ./device-ab.sh $L/ab-A.log 170 1 "${m}x _bf16 $v sym g128" base v12tma
        done
    done
done
echo "A/B done at $(el) s" | tee -a $L/device-A.txt
for t in int4_linear raw_launch graph; do
    xz -dc $t-base.xz > $t-base && chmod +x $t-base
    timeout 100 ./$t-base > $L/tests-$t-base.log 2>&1
    echo "$t exit $? at $(el) s: $(grep -E 'test result' $L/tests-$t-base.log)" | tee -a $L/device-A.txt
done
./variant-tests.sh $L/device-A.txt int4_linear v12tma gpu::gemm_tiles_ragged \
    racecheck:gpu::unclustered_hundred_twenty_eight_row_tile_ragged synccheck:gpu::unclustered_hundred_twenty_eight_row_tile_ragged
echo "sanitizers done at $(el) s" | tee -a $L/device-A.txt
k=int4_linear_v13_bf16
timeout 120 /usr/local/cuda/bin/ncu --section SourceCounters --section WarpStateStats -k regex:"^$k\$" -c 1 \
    -o $L/ncu-src-v13 ./qk-base bench --kernel "$k 128x28672x8192 sym g128" --iters 1 > $L/ncu-src-v13.log 2>&1
echo "ncu exit $? at $(el) s" | tee -a $L/device-A.txt
timeout 60 /usr/local/cuda/bin/ncu --import $L/ncu-src-v13.ncu-rep --page source --csv --print-source sass > $L/ncu-src-v13.csv 2>&1
gzip -9 $L/ncu-src-v13.csv
cd $L && tar cJf logs-A.tar.xz tests-*.log sanitizer-*.log ncu-src-v13.log && rm tests-*.log sanitizer-*.log ncu-src-v13.log
date -u >> $L/device-A.txt
