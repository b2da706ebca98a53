#!/bin/bash
# Run 26 call D: F1 (d089fd6: the producers without the constants' prefetch)
# and F2 (F1 with the reduction at 4 columns a thread, 16-byte loads of 8
# slices at once, 8-byte stores): F2's GPU tests and compute-sanitizer
# memcheck and synccheck of its whole int4 linear binary; then the split
# cases of both, alternating.
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-D.txt
for t in int4_linear raw_launch graph ptx int4_weights; do echo "=== tests/$t" >> $L/tests-D.log; timeout 150 tests/$t >> $L/tests-D.log 2>&1; echo "$t exit $?"; done
grep -hE "^===|test result|FAILED|panicked" $L/tests-D.log | head -20
for round in 1 2; do
  for b in F1 F2; do
    for f in "v19 split 64x bf16" "v13 split 128x4096x4096 bf16" "v13 split 128x11008x4096 bf16"; do
      echo "=== $b round $round $f" >> $L/bench-D.log
      timeout 100 ./qk-$b bench --kernel "$f" --json /tmp/r.json --png /tmp/r.png >> $L/bench-D.log 2>&1; echo "$b $f exit $?"
    done
  done
done
grep -E "^===|graph cold" $L/bench-D.log | grep -v memcpy | sed 's/^\[ *[0-9.]* s\] //' | cut -c1-100
for tool in memcheck synccheck; do
  timeout 110 compute-sanitizer --tool $tool --error-exitcode 99 tests/int4_linear --test-threads=1 > $L/sanitizer-$tool-D.log 2>&1; echo "$tool exit $?"
  grep -E "ERROR SUMMARY|test result" $L/sanitizer-$tool-D.log
done
