#!/bin/bash
# Run 25 call C: the final build (version 21 removed; the host's tables of
# the tiled GEMMs in one place, the PTX identical to run 24's): the GPU
# tests of the binaries that plan and launch the int4 layer.
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-C.txt
for t in int4_linear raw_launch graph ptx; do echo "=== tests/$t" >> $L/tests-C.log; timeout 150 tests/$t >> $L/tests-C.log 2>&1; echo "$t exit $?"; done
grep -hE "^===|test result|FAILED|panicked" $L/tests-C.log
