#!/bin/bash
# Run 22 call G: version 17 as committed: GPU tests, compute-sanitizer on its
# block test and on versions 3-6's (their body changed), and M = 1 on the
# two largest shapes with the library's choice and a sweep of version 17.
cd .carry && tar xJf bins.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-G.txt
for t in int4_linear ptx raw_launch graph int4_weights; do timeout 200 tests/$t > $L/tests-$t-G.log 2>&1; echo "$t exit $?"; done
grep -hE "test result|FAILED|panicked" $L/tests-*-G.log | head
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 99 tests/int4_linear every_block --test-threads=1 > $L/sanitizer-$tool-G.log 2>&1; echo "$tool exit $?"
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|test result" $L/sanitizer-$tool-G.log
done
for s in 28672x8192 8192x28672; do
  ./quant-kernels bench --kernel "g128_bf16 1x$s sym" --sweep --json /tmp/b.json --png /tmp/b.png
done > $L/bench-G.log 2>&1
grep -hE "^\[" $L/bench-G.log | grep -v -E "asym|cuMemcpy" | grep -E "v5|v17" | sed -E 's/^\[[ 0-9.]+s\] //; s/ graph cold//; s/int4_linear_//; s/, rel l2 [0-9.e-]+//'
