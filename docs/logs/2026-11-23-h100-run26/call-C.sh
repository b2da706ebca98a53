#!/bin/bash
# Run 26 call C: the reduction loading 4 slices at once, 8 columns a thread
# (16-byte accesses), and one prefetch a step where the first and last slot
# are one group (qA, the working tree after call B); qB: qA without the
# producers' prefetch of the next step's constants
# (probe-no-prefetch-C.patch); base: 8bdea25. The int4 linear, raw-launch
# and graph GPU tests of qA's build first.
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-C.txt
for t in int4_linear raw_launch graph; do echo "=== tests/$t" >> $L/tests-C.log; timeout 150 tests/$t >> $L/tests-C.log 2>&1; echo "$t exit $?"; done
grep -hE "^===|test result|FAILED|panicked" $L/tests-C.log | head -20
for round in 1 2; do
  for b in base qA qB; do
    [ $round = 2 ] && [ $b = qB ] && continue
    for f in "v19 64x bf16" "v13 128x4096x4096 bf16" "v13 128x11008x4096 bf16" "v13 128x4096x11008 bf16"; do
      [ $round = 2 ] && [ "$f" != "v19 64x bf16" ] && continue
      echo "=== $b round $round $f" >> $L/bench-C.log
      timeout 100 ./qk-$b bench --kernel "$f" --json /tmp/r.json --png /tmp/r.png >> $L/bench-C.log 2>&1; echo "$b $f exit $?"
    done
  done
done
grep -E "^===|graph cold" $L/bench-C.log | grep -v memcpy | sed 's/^\[ *[0-9.]* s\] //' | cut -c1-100
