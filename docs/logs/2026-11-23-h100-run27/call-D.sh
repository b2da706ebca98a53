#!/bin/bash
# Run 27 call D: at G = 128 the producers read a step's one group once
# for its four slots (F, the working tree; scales row-major again after
# call C) against call A's build (base). F's int4 linear GPU tests, the
# benches, then compute-sanitizer memcheck and synccheck of the whole int4
# linear binary and racecheck of its tiled-GEMM test.
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-D.txt
echo "=== tests/int4_linear (F)" >> $L/tests-D.log; timeout 150 tests/int4_linear >> $L/tests-D.log 2>&1; echo "int4_linear exit $?"
grep -hE "^===|test result|FAILED|panicked" $L/tests-D.log | head -20
run() { echo "=== $1 $2" >> $L/bench-D.log; timeout 120 ./qk-$1 bench --kernel "$2" --json /tmp/r.json --png /tmp/r.png >> $L/bench-D.log 2>&1; echo "$1 $2 exit $?"; }
run F "v22 16x sym bf16"
for b in base F; do run $b "v22 16x28672x8192 sym bf16"; run $b "v19 64x28672x8192 sym bf16"; run $b "v13 128x28672x8192 sym bf16"; done
run F "v19 split 64x8192x28672 sym bf16"
grep -E "^===|graph cold" $L/bench-D.log | grep -v memcpy | sed 's/^\[ *[0-9.]* s\] //' | cut -c1-100
for tool in memcheck synccheck; do
  timeout 110 compute-sanitizer --tool $tool --error-exitcode 99 tests/int4_linear --test-threads=1 > $L/sanitizer-$tool-D.log 2>&1; echo "$tool exit $?"
  grep -E "ERROR SUMMARY|test result" $L/sanitizer-$tool-D.log
done
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 99 tests/int4_linear gemm_tiles --test-threads=1 > $L/sanitizer-racecheck-D.log 2>&1; echo "racecheck exit $?"
grep -E "RACECHECK SUMMARY|test result" $L/sanitizer-racecheck-D.log
