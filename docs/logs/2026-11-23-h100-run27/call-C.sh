#!/bin/bash
# Run 27 call C: scales and zero points group by group (L, the working
# tree: a warp's 32 rows of one group are 64 contiguous bytes) against call
# A's build (base, row-major). L's GPU tests first, then M = 1 and 16
# (versions 17 and 22), 64 (version 19) and 128 (version 13), bf16.
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-C.txt
for t in int4_linear int4_weights raw_launch ptx graph; do echo "=== tests/$t" >> $L/tests-C.log; timeout 150 tests/$t >> $L/tests-C.log 2>&1; echo "$t exit $?"; done
grep -hE "^===|test result|FAILED|panicked" $L/tests-C.log | head -20
run() { echo "=== $1 $2" >> $L/bench-C.log; timeout 120 ./qk-$1 bench --kernel "$2" --json /tmp/r.json --png /tmp/r.png >> $L/bench-C.log 2>&1; echo "$1 $2 exit $?"; }
run L "v22 16x sym bf16"
run base "v22 16x28672x8192 sym bf16"
run L "v17 1x sym bf16"
run L "v17 16x sym bf16"
run L "v19 64x sym bf16"
run L "v13 128x sym bf16"
run base "v17 1x28672x8192 sym bf16"
grep -E "^===|graph cold" $L/bench-C.log | grep -v memcpy | sed 's/^\[ *[0-9.]* s\] //' | cut -c1-100
