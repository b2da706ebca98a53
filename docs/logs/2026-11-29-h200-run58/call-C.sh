#!/bin/bash
# Run 58 call C (H200): HEAD dcbbfb4 (versions 12 and 13's `_g128_` entry
# points with packed constants; version 13's padding block of a cluster
# reads the last block's constants: call B's g128 build read one step's
# 256 rows past the array there, the likely cause of its test binary's
# illegal address, which memcheck cannot see in a TMA bulk copy).
# 1. The int4_linear, raw_launch, graph, int4_weights and ptx test
#    binaries; if int4_linear fails, each of its tests in a process of its
#    own, to name the one that faults.
#    Predicted: every test passes.
# 2. The sitting: the whole bf16 int4 report, PyTorch's linear peers, the
#    comparison (scripts/gpu-check.sh). Predicted from call B: M = 128
#    28672 x 8192 near 89 µs (version 12), 1.38x cuBLAS; 8192 x 28672
#    near 86 µs.
cd .carry && tar xJf t.tar.xz && xz -dc qk-final.xz > quant-kernels && chmod +x quant-kernels
L=$OUT && mkdir -p $L
START=$(date +%s); export START
el() { echo $(( $(date +%s) - START )); }
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-C.txt
export REQUIRE_GPU=1 CUDA_CACHE_MAXSIZE=4294967296
for t in int4_linear raw_launch graph int4_weights ptx; do
    timeout 120 tests/$t > $L/tests-$t.log 2>&1
    echo "$t exit $? at $(el) s: $(grep -E 'test result' $L/tests-$t.log)" | tee -a $L/device-C.txt
done
if ! grep -q "test result: ok" $L/tests-int4_linear.log; then
    for t in $(tests/int4_linear --list 2>/dev/null | sed -n 's/: test$//p' | grep '^gpu::'); do
        timeout 60 tests/int4_linear --exact $t > $L/tests-one.log 2>&1
        echo "$t exit $?: $(grep -E 'test result|llegal' $L/tests-one.log | head -2 | tr '\n' ' ')" | tee -a $L/device-C.txt
    done
fi
left=$(( 585 - $(el) ))
echo "sitting with $left s" | tee -a $L/device-C.txt
STEPS="bench peers compare" BENCH_KERNEL="int4_linear bf16" PEERS_ONLY=linear \
  timeout $left ./gpu-check.sh $L/c > /dev/null 2>&1; echo "sitting exit $? at $(el) s" | tee -a $L/device-C.txt
cd $L && gzip -9 c/report.json c/bench.log && tar cJf logs-C.tar.xz tests-*.log && rm tests-*.log
date -u >> $L/device-C.txt
