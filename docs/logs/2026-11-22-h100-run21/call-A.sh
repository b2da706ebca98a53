#!/bin/bash
# Run 21 call A: version 15's first build: GPU tests, sanitizers, M = 1 bench of v5 and v15.
cd .carry && tar xJf bins.tar.xz && L=$OUT
export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; } > $L/device.txt
for t in int4_linear int4_weights ptx raw_launch; do echo "== $t"; ./tests/$t 2>&1 | grep -E "^test |test result|panicked|Error" ; done > $L/tests-A.log 2>&1
STEPS=sanitizer SANITIZE_RUNS="memcheck:int4_linear synccheck:int4_linear" timeout 300 ./gpu-check.sh /tmp/san > /dev/null 2>&1; cp /tmp/san/checks.log $L/sanitizer-A.log
for dt in f16 bf16; do for s in 1x4096x4096 1x4096x11008; do echo "-- racecheck v15 $dt $s"; compute-sanitizer --tool racecheck --error-exitcode 99 ./quant-kernels bench --kernel "int4_linear_v15_g128_$dt $s" --iters 1 2>&1 | grep -E "SUMMARY|launched|FAIL|rror"; done; done > $L/racecheck-A.log 2>&1
./quant-kernels bench --kernel "int4_linear_v15 1x" --sweep --json /tmp/b15.json --png /tmp/b15.png > $L/bench-v15-A.log 2>&1
./quant-kernels bench --kernel "int4_linear_v5_m8_g128 1x" --sweep --json /tmp/b5.json --png /tmp/b5.png > $L/bench-v5-A.log 2>&1
tail -3 $L/tests-A.log; grep -c "ok$" $L/bench-v15-A.log
