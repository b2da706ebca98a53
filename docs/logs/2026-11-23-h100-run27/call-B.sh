#!/bin/bash
# Run 27 call B: the producers load each step's group constants a step
# ahead (P, the working tree), against call A's build (base) and a probe
# that loads none (N, probe-no-constants-B.patch: every scale 1, zero 8;
# wrong results). P's int4 linear GPU tests first.
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-B.txt
echo "=== tests/int4_linear (P)" >> $L/tests-B.log; timeout 150 tests/int4_linear >> $L/tests-B.log 2>&1; echo "int4_linear exit $?"
grep -hE "^===|test result|FAILED|panicked" $L/tests-B.log | head -20
run() { echo "=== $1 $2" >> $L/bench-B.log; timeout 120 ./qk-$1 bench --kernel "$2" --json /tmp/r.json --png /tmp/r.png >> $L/bench-B.log 2>&1; echo "$1 $2 exit $?"; }
for b in base P N; do run $b "v22 16x sym bf16"; done
for b in base P; do run $b "v19 64x28672x8192 sym bf16"; run $b "v19 split 64x8192x28672 sym bf16"; run $b "v13 128x28672x8192 sym bf16"; done
for b in P base; do run $b "v22 16x sym bf16"; done
run P "v22 1x sym bf16"
grep -E "^===|graph cold" $L/bench-B.log | grep -v memcpy | sed 's/^\[ *[0-9.]* s\] //' | cut -c1-100
