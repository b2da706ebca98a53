#!/bin/bash
# Run 26 call E: F1 (d089fd6) and F3: call D's F2 without its local memory
# (ptxas had put the batch of loaded slices and the four outputs on the
# stack: each slice of the array was indexed at run time). F3's GPU tests,
# compute-sanitizer memcheck and synccheck of its int4 linear binary; the
# split cases of both, alternating.
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-E.txt
for t in int4_linear raw_launch graph ptx; do echo "=== tests/$t" >> $L/tests-E.log; timeout 150 tests/$t >> $L/tests-E.log 2>&1; echo "$t exit $?"; done
grep -hE "^===|test result|FAILED|panicked" $L/tests-E.log | head -20
for round in 1 2; do
  for b in F1 F3; do
    for f in "v19 split 64x bf16" "v13 split 128x4096x4096 bf16" "v13 split 128x11008x4096 bf16"; do
      echo "=== $b round $round $f" >> $L/bench-E.log
      timeout 100 ./qk-$b bench --kernel "$f" --json /tmp/r.json --png /tmp/r.png >> $L/bench-E.log 2>&1; echo "$b $f exit $?"
    done
  done
done
grep -E "^===|graph cold" $L/bench-E.log | grep -v memcpy | sed 's/^\[ *[0-9.]* s\] //' | cut -c1-100
for tool in memcheck synccheck; do
  timeout 110 compute-sanitizer --tool $tool --error-exitcode 99 tests/int4_linear --test-threads=1 > $L/sanitizer-$tool-E.log 2>&1; echo "$tool exit $?"
  grep -E "ERROR SUMMARY|test result" $L/sanitizer-$tool-E.log
done
