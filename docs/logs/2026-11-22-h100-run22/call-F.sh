#!/bin/bash
# Run 22 call F: version 17 (versions 5 and 6 in 2-D blocks of row groups):
# GPU tests, compute-sanitizer on its test and on versions 3-6's block test
# (their body changed), and the GEMVs at M = 1 and 16 on every shape.
cd .carry && tar xJf bins.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-F.txt
for t in int4_linear ptx raw_launch; do timeout 200 tests/$t > $L/tests-$t-F.log 2>&1; echo "$t exit $?"; done
grep -hE "test result|FAILED|panicked" $L/tests-*-F.log | head
for tool in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 99 tests/int4_linear v17_every_block_shape tensor_core_versions_every_block_size --test-threads=1 > $L/sanitizer-$tool-F.log 2>&1; echo "$tool exit $?"
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|test result" $L/sanitizer-$tool-F.log
done
for s in 4096x4096 11008x4096 4096x11008 28672x8192 8192x28672; do
  for m in 1 16; do ./quant-kernels bench --kernel "g128_bf16 ${m}x$s" --json /tmp/b.json --png /tmp/b.png; done
done > $L/bench-F.log 2>&1
grep -hE "^\[" $L/bench-F.log | grep -v -E "asym|cuMemcpy" | sed -E 's/^\[[ 0-9.]+s\] //; s/ graph cold//; s/int4_linear_//; s/, rel l2 [0-9.e-]+//'
