#!/bin/bash
# Run 22 call A: version 16's first build: GPU tests, compute-sanitizer on its
# test, and the M = 16 GEMVs (v6, v16 and its neighbours) on every shape.
cd .carry && tar xJf bins.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device.txt
for t in int4_linear ptx raw_launch; do timeout 240 tests/$t > $L/tests-$t-A.log 2>&1; echo "$t exit $?"; done
grep -hE "test result|FAILED|panicked|failed" $L/tests-*-A.log | head -20
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 99 tests/int4_linear v16_every_block_shape --test-threads=1 > $L/sanitizer-$tool-A.log 2>&1; echo "$tool exit $?"
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|test result" $L/sanitizer-$tool-A.log
done
./quant-kernels bench --kernel "g128_bf16 16x sym" --json $L/bench-A.json --png /tmp/a.png > $L/bench-m16-A.log 2>&1
grep -hE "^\[" $L/bench-m16-A.log | grep -v asym | grep -E "v16|v6|v5" | sed -E 's/^\[[ 0-9.]+s\] //; s/ graph cold//'
