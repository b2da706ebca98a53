#!/bin/bash
# Run 25 call D (after the review): the final build (PTX identical to run
# 24's call G build; the host's plans rewritten over one table): the GPU
# tests of the binaries that plan and launch the int4 layer, then
# compute-sanitizer memcheck and synccheck of the whole int4 linear binary
# and racecheck of its tiled-GEMM test.
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-D.txt
for t in int4_linear raw_launch graph ptx; do echo "=== tests/$t" >> $L/tests-D.log; timeout 120 tests/$t >> $L/tests-D.log 2>&1; echo "$t exit $?"; done
grep -hE "^===|test result|FAILED|panicked" $L/tests-D.log
for tool in memcheck synccheck; do
  timeout 110 compute-sanitizer --tool $tool --error-exitcode 99 tests/int4_linear --test-threads=1 > $L/sanitizer-$tool-D.log 2>&1; echo "$tool exit $?"
  grep -E "ERROR SUMMARY|test result" $L/sanitizer-$tool-D.log
done
timeout 200 compute-sanitizer --tool racecheck --error-exitcode 99 tests/int4_linear gemm_tiles --test-threads=1 > $L/sanitizer-racecheck-D.log 2>&1; echo "racecheck exit $?"
grep -E "RACECHECK SUMMARY|test result" $L/sanitizer-racecheck-D.log
