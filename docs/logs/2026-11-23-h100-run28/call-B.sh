#!/bin/bash
# Run 28 call B: version 23 (version 22 with its codes copied by the TMA
# unit, commit "Version 23"): the int4 linear, raw-launch and PTX GPU tests,
# then versions 23 and 22 at M = 16 in the same sitting, and version 23
# at M = 1 and 32.
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-B.txt
for t in int4_linear raw_launch ptx; do
  echo "=== tests/$t" >> $L/tests-B.log; timeout 150 tests/$t >> $L/tests-B.log 2>&1; echo "$t exit $?"
done
grep -hE "^===|test result|FAILED|panicked|failed" $L/tests-B.log | head -30
run() { echo "=== $1" >> $L/bench-B.log; timeout 150 ./quant-kernels bench --kernel "$1" --json /tmp/r.json --png /tmp/r.png >> $L/bench-B.log 2>&1; echo "$1 exit $?"; }
run "v23 16x sym bf16"; run "v22 16x sym bf16"
grep -E "^===|graph cold" $L/bench-B.log | grep -v memcpy | sed 's/^\[ *[0-9.]* s\] //' | cut -c1-110
