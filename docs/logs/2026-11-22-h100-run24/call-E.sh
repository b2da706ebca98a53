#!/bin/bash
# Run 24 call E: version 19 with two 16-column chunks a group of MMAs
# (dequantize two chunks, fence, 4 MMAs, wait for all but that group;
# versions 10 to 18 keep one chunk a group). The int4 linear GPU tests,
# then every version the report times at M = 64 and 32, as call A.
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-E.txt
timeout 150 tests/int4_linear > $L/tests-int4_linear-E.log 2>&1; echo "tests exit $?"
grep -hE "test result|FAILED|panicked|Error" $L/tests-int4_linear-E.log | head
for m in 64 32; do
  timeout 150 ./quant-kernels bench --kernel "int4_linear ${m}x" --json /tmp/r$m.json --png /tmp/r$m.png >> $L/bench-E.log 2>&1; echo "bench $m exit $?"
done
grep -E "v1[2389]" $L/bench-E.log | grep -E "bf16" | grep "us graph" | sed -E 's/^\[ *[0-9.]+ s\] //; s/ sym g128: / /; s/ us graph cold.*//' | cut -c1-110
