#!/bin/bash
# Run 23 call A: version 17's one-warp-group entry points (`_w1_`: constant
# K stride, outputs stored from registers). GPU tests and compute-sanitizer
# on the version-17 block test after version 17 at every block of the
# sweep, bf16, G = 128, M = 1 and 16 on the five shapes: the committed build
# (qk-old, runtime warps everywhere) against this one (qk-new), alternating.
cd .carry && tar xJf bins.tar.xz && xz -dk b/qk-old.xz && cp quant-kernels b/qk-new && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-A.txt
for round in 1 2; do
  for b in old new; do
    echo "== $b $round"; timeout 75 ./b/qk-$b bench --kernel "v17 g128_bf16" --sweep --json /tmp/b.json --png /tmp/b.png
  done
done > $L/bench-ab-A.log 2>&1
grep -hE "^== |^\[" $L/bench-ab-A.log | grep -v -E "asym|cuMemcpy" | sed -E 's/^\[[ 0-9.]+s\] //; s/ graph cold//; s/int4_linear_//; s/, rel l2 [0-9.e-]+//; s/ g128: / /' | head -400
for t in int4_linear ptx; do timeout 110 tests/$t > $L/tests-$t-A.log 2>&1; echo "$t exit $?"; done
grep -hE "test result|FAILED|panicked" $L/tests-*-A.log
for tool in memcheck racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 99 tests/int4_linear v17_every_block --test-threads=1 > $L/sanitizer-$tool-A.log 2>&1; echo "$tool exit $?"
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|test result" $L/sanitizer-$tool-A.log
done
