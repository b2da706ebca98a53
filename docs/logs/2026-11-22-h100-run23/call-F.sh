#!/bin/bash
# Run 23 call F: version 18 (version 10 with 64 activation rows a tile,
# wgmma m64n64k16). The int4 linear GPU tests (every test runs version 18
# unsplit and split 3 ways; the split and tile tests more), then the report
# of version 18 at M = 1, 16, 64 and 128 and of every version at M = 64,
# then compute-sanitizer memcheck of the whole int4 binary and racecheck
# and synccheck of the tile test.
cd .carry && xz -d int4_linear.xz quant-kernels.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-F.txt
timeout 120 ./int4_linear > $L/tests-int4_linear-F.log 2>&1; echo "tests exit $?"; grep -E "test result|FAILED|panicked" $L/tests-int4_linear-F.log
for f in "v18" "int4_linear 64x"; do
  echo "== $f"; timeout 110 ./quant-kernels bench --kernel "$f" --json /tmp/f.json --png /tmp/f.png
done > $L/bench-F.log 2>&1
grep -E "^\[" $L/bench-F.log | grep -v asym | grep "_bf16" | sed -E 's/^\[[ 0-9.]+s\] //; s/ graph cold//; s/, rel l2 [0-9.e-]+//; s/int4_linear_//'
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 99 ./int4_linear --test-threads=1 > $L/sanitizer-memcheck-F.log 2>&1; echo "memcheck exit $?"; grep -E "ERROR SUMMARY|test result" $L/sanitizer-memcheck-F.log
for tool in racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 99 ./int4_linear gemm_tiles --test-threads=1 > $L/sanitizer-$tool-F.log 2>&1; echo "$tool exit $?"
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|test result" $L/sanitizer-$tool-F.log
done
