#!/bin/bash
# Run 31 call E: the final build (the M = 16 pick past V23_MAX_K moved to
# version 17 after call D; kernels unchanged since b1ff571): the int4
# linear, graph and raw-launch GPU tests (REQUIRE_GPU=1).
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-E.txt
for t in int4_linear graph raw_launch; do echo "=== tests/$t" >> $L/tests-E.log; timeout 100 tests/$t >> $L/tests-E.log 2>&1; echo "$t exit $?"; done
grep -hE "^===|test result|FAILED|panicked" $L/tests-E.log
