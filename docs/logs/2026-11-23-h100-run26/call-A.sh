#!/bin/bash
# Run 26 call A: what holds version 19's step? Four builds of the main job:
# base (8bdea25), p1 (producers store fixed constants, no loads of them:
# probe-no-constants-A.patch), p2 (consumers skip the dequantization, the
# codes go to the MMAs as they are: probe-no-dequant-A.patch), p3 (the
# producers also ask L2 for the constants STAGES steps ahead:
# probe-prefetch-l2-A.patch). p1 and p2 give wrong results (their checks fail).
cd .carry && tar xJf p.tar.xz && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; } | tee $L/device-A.txt
for round in 1 2; do
  for b in base p3 p1 p2; do
    [ $round = 2 ] && [ $b = p1 -o $b = p2 ] && continue
    echo "=== $b round $round v19 64x" >> $L/bench-A.log
    timeout 90 ./qk-$b bench --kernel "v19 64x bf16" --json /tmp/r.json --png /tmp/r.png >> $L/bench-A.log 2>&1; echo "$b v19 exit $?"
    [ $round = 2 ] || [ $b = p1 -o $b = p2 ] && continue
    echo "=== $b round $round v13 128x" >> $L/bench-A.log
    timeout 90 ./qk-$b bench --kernel "v13 128x bf16" --json /tmp/r.json --png /tmp/r.png >> $L/bench-A.log 2>&1; echo "$b v13 exit $?"
  done
done
grep -E "^===|^int4_linear_v(19|13)" $L/bench-A.log | cut -c1-120
