#!/bin/bash
# Run 24 call A: versions 19 and 20 (the producer-consumer pipelines of
# versions 12 and 13 with version 18's 64-row tile). The int4 linear GPU
# tests; every version the report times at M = 64 and 32; Nsight Compute of
# versions 18 to 20 at 64 x 28672 x 8192.
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-A.txt
timeout 150 tests/int4_linear > $L/tests-int4_linear-A.log 2>&1; echo "tests exit $?"
grep -hE "test result|FAILED|panicked|Error" $L/tests-int4_linear-A.log | head
for m in 64 32; do
  timeout 150 ./quant-kernels bench --kernel "int4_linear ${m}x" --json /tmp/r$m.json --png /tmp/r$m.png >> $L/bench-A.log 2>&1; echo "bench $m exit $?"
done
grep -E "v1[2389]|v20|v17" $L/bench-A.log | grep -E "bf16.*(64|32)x(28672x8192|8192x28672|4096x4096) " | grep "us graph" | cut -c1-140
N=/usr/local/cuda/bin/ncu; M="--clock-control none --section SpeedOfLight --section WarpStateStats --metrics smsp__inst_executed.sum,gpu__time_duration.sum"
for v in 18 19 20; do
  timeout 60 $N $M -k regex:int4_linear_v${v}_bf16 -c 1 ./quant-kernels bench --kernel "int4_linear_v${v}_bf16 64x28672x8192" --iters 1 2>&1 | grep -v "^\["
done > $L/ncu-A.log 2>&1
grep -E "^  [a-z_]+.*\(|Duration|DRAM Through|Compute \(SM\)|Memory Through|Warp Cycles Per Issued|Stall" $L/ncu-A.log | head -60
