#!/bin/bash
# Run 55 call C (H200): call B's racecheck of gemm_tiles_ragged, version
# 23's launches only (`--kernel-name kns=int4_linear_v23`), stopped at
# once with "Internal Sanitizer Error: The Sanitizer failed to handle a
# hardware exception" and an illegal address, on 7cd5c66 (`base`),
# whose GPU tests pass and whose memcheck and synccheck of that test are
# clean. Which launches, and is it the TMA activations?
# 1. base: version 23's first two launches (m = 17, k = 32: both
#    activation boxes past k), then the rest (skip 2).
# 2. base: version 23 with `--racecheck-memcpy-async no`.
# 3. `old` (d1aa212, version 23 copying activations with cp.async):
#    version 23, as call B.
# 4. base: versions 19 and 24 (TMA activations too) on the same test.
cd .carry
L=$OUT && mkdir -p $L
START=$(date +%s); export START
el() { echo $(( $(date +%s) - START )); }
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-C.txt
for b in base old; do xz -dc int4_linear-$b.xz > int4_linear-$b && chmod +x int4_linear-$b; done
export REQUIRE_GPU=1 CUDA_CACHE_MAXSIZE=4294967296
./int4_linear-base --exact gpu::gemm_tiles_ragged > $L/warm-base.log 2>&1
./int4_linear-old --exact gpu::gemm_tiles_ragged > $L/warm-old.log 2>&1
echo "warm at $(el) s: $(grep 'test result' $L/warm-*.log | tr '\n' ' ')" | tee -a $L/device-C.txt
n=0
check() { # build name sanitizer-options...
    local b=$1 name=$2; shift 2
    local log=$L/racecheck-$name.log
    local left=$(( 560 - $(el) )); [ $left -gt 150 ] && left=150
    [ $left -lt 15 ] && { echo "$name skipped at $(el) s" | tee -a $L/device-C.txt; return; }
    timeout $left compute-sanitizer --tool racecheck "$@" ./int4_linear-$b --exact gpu::gemm_tiles_ragged > $log 2>&1
    echo "$name ($b; $*) exit $? at $(el) s: $(grep -E 'SUMMARY|test result|Internal|panicked' $log | head -4 | tr '\n' ' ')" | tee -a $L/device-C.txt
}
check base v23-first2 --kernel-name kns=int4_linear_v23 --launch-count 2
check base v23-skip2 --kernel-name kns=int4_linear_v23 --launch-skip 2
check base v23-no-async --kernel-name kns=int4_linear_v23 --racecheck-memcpy-async no
check old v23-old --kernel-name kns=int4_linear_v23
check base v19 --kernel-name kns=int4_linear_v19
check base v24 --kernel-name kns=int4_linear_v24
date -u >> $L/device-C.txt
