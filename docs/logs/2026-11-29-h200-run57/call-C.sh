#!/bin/bash
# Run 57 call C (H200): call B's symmetric scales again, with a consumer
# loop of their own (`symloop`, symmetric-scales-loop.patch on 536ff57:
# `consume` takes SYMMETRIC as a const generic, so the offset is a
# constant and no step branches on the form). Call B's one loop with a
# branch on the form made every case slower, with zero points too (the
# same bytes as base): 10% at 28672 x 8192, so the branch, not the bytes,
# set those times.
# Predicted: symmetric cases 1-3% faster than base (the bytes call B
# meant to save), asymmetric within 0.5% (their loop is base's).
# 1. A/B base (536ff57) against symloop, two rounds, bf16, G = 128.
# 2. symloop's int4_linear, int4_weights and raw_launch tests; memcheck
#    and racecheck (version 23) of sixteen_row_tile_ragged.
# 3. The sitting (bf16 int4 report, PyTorch's linear peers, comparison)
#    on the faster build: symloop if its symmetric cases are 0.5% faster
#    on geometric mean, else base.
cd .carry
L=$OUT && mkdir -p $L
START=$(date +%s); export START
el() { echo $(( $(date +%s) - START )); }
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-C.txt
export REQUIRE_GPU=1 CUDA_CACHE_MAXSIZE=4294967296
for r in 1 2; do
    ./device-ab.sh $L/ab-C.log 150 1 "16x _bf16 v23 g128" base symloop
    ./device-ab.sh $L/ab-C.log 160 1 "32x _bf16 v24 g128" base symloop
    ./device-ab.sh $L/ab-C.log 170 1 "64x _bf16 v19 g128" base symloop
done
echo "A/B done at $(el) s" | tee -a $L/device-C.txt
winner=$(python3 - $L/ab-C.log <<'PY'
import math, sys
from collections import defaultdict
from ab_table import HEADER, case_of
best = defaultdict(dict)
build = None
for line in open(sys.argv[1]):
    head = HEADER.match(line)
    if head:
        build = head[1]
        continue
    timed = case_of(line) if build else None
    if timed and " sym " in timed[0]:
        best[build][timed[0]] = min(best[build].get(timed[0], 1e9), timed[1])
cases = [c for c in best["base"] if c in best["symloop"]]
ratio = math.exp(sum(math.log(best["symloop"][c] / best["base"][c]) for c in cases) / max(len(cases), 1))
print("symloop" if cases and ratio < 0.995 else "base", f"{ratio:.4f}", len(cases))
PY
)
echo "winner (symloop/base geomean, symmetric cases): $winner" | tee -a $L/device-C.txt
for t in int4_linear int4_weights raw_launch; do
    xz -dc $t-symloop.xz > $t && chmod +x $t
    timeout 90 ./$t > $L/tests-$t-symloop.log 2>&1
    echo "$t exit $? at $(el) s: $(grep -E 'test result|FAILED' $L/tests-$t-symloop.log | tr '\n' ' ')" | tee -a $L/device-C.txt
done
for tool in memcheck racecheck; do
    filter=(); [ $tool = racecheck ] && filter=(--kernel-name kns=int4_linear_v23)
    log=$L/sanitizer-$tool-sixteen_row_tile_ragged-symloop.log
    timeout 40 compute-sanitizer --tool $tool "${filter[@]}" ./int4_linear --exact gpu::sixteen_row_tile_ragged > $log 2>&1
    echo "$tool exit $? at $(el) s: $(grep -E 'SUMMARY|test result|Internal' $log | tr '\n' ' ')" | tee -a $L/device-C.txt
done
xz -dc qk-${winner%% *}.xz > quant-kernels && chmod +x quant-kernels
left=$(( 585 - $(el) ))
echo "sitting on ${winner%% *} with $left s" | tee -a $L/device-C.txt
STEPS="bench peers compare" BENCH_KERNEL="int4_linear bf16" PEERS_ONLY=linear \
  timeout $left ./gpu-check.sh $L/c > /dev/null 2>&1; echo "sitting exit $? at $(el) s" | tee -a $L/device-C.txt
cd $L && tar cJf logs-C.tar.xz tests-*.log sanitizer-*.log && rm tests-*.log sanitizer-*.log
date -u >> $L/device-C.txt
