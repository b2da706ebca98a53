#!/bin/bash
# Run 26 call H: the final build (best_for returns its 65-128-row pick with
# its split; the same picks as call G; host only, the PTX is call F's): the
# int4 linear and raw-launch GPU tests, then compute-sanitizer memcheck and
# synccheck of the whole int4 linear binary.
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-H.txt
for t in int4_linear raw_launch; do echo "=== tests/$t" >> $L/tests-H.log; timeout 150 tests/$t >> $L/tests-H.log 2>&1; echo "$t exit $?"; done
grep -hE "^===|test result|FAILED|panicked" $L/tests-H.log | head -20
for tool in memcheck synccheck; do
  timeout 110 compute-sanitizer --tool $tool --error-exitcode 99 tests/int4_linear --test-threads=1 > $L/sanitizer-$tool-H.log 2>&1; echo "$tool exit $?"
  grep -E "ERROR SUMMARY|test result" $L/sanitizer-$tool-H.log
done
