#!/bin/bash
# Run 28 call E: compute-sanitizer on call D's build (version 23 in every
# int4 linear GPU test): memcheck and synccheck of the whole int4 linear
# test binary, racecheck of the tile test (every tiled version, split and not).
cd .carry && ( [ -d tests ] || tar xJf t.tar.xz ) && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-E.txt
for tool in memcheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 99 tests/int4_linear --test-threads=1 > $L/sanitizer-$tool-E.log 2>&1; echo "$tool exit $?"
done
timeout 200 compute-sanitizer --tool racecheck --error-exitcode 99 tests/int4_linear gemm_tiles --test-threads=1 > $L/sanitizer-racecheck-E.log 2>&1; echo "racecheck exit $?"
grep -hE "ERROR SUMMARY|RACECHECK SUMMARY|test result|hazard" $L/sanitizer-*-E.log | head -12
