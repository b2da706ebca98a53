#!/bin/bash
# Run 24 call H (after the review): every producer-consumer version (12, 13
# and 19) declares one block a multiprocessor (.minnctapersm), not version
# 19 alone, which changes versions 12's and 13's machine code; version 13's
# feed reads its ABI constants. The int4 linear GPU tests, memcheck and
# synccheck of the whole binary, racecheck of the tile test, then every
# version the report times at M = 128 (against call F's figures).
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-H.txt
timeout 120 tests/int4_linear > $L/tests-int4_linear-H.log 2>&1; echo "tests exit $?"
grep -hE "test result|FAILED|panicked" $L/tests-int4_linear-H.log
for tool in memcheck synccheck; do
  timeout 110 compute-sanitizer --tool $tool --error-exitcode 99 tests/int4_linear --test-threads=1 > $L/sanitizer-$tool-H.log 2>&1; echo "$tool exit $?"
  grep -E "ERROR SUMMARY|test result" $L/sanitizer-$tool-H.log
done
timeout 200 compute-sanitizer --tool racecheck --error-exitcode 99 tests/int4_linear gemm_tiles --test-threads=1 > $L/sanitizer-racecheck-H.log 2>&1; echo "racecheck exit $?"
grep -E "RACECHECK SUMMARY|test result" $L/sanitizer-racecheck-H.log
timeout 120 ./quant-kernels bench --kernel "int4_linear 128x" --json /tmp/r.json --png /tmp/r.png > $L/bench-H.log 2>&1; echo "bench exit $?"
grep "us graph" $L/bench-H.log | grep bf16 | grep -E "v1[239]" | sed -E 's/^\[ *[0-9.]+ s\] //; s/ sym g128: / /; s/ us graph cold.*//'
