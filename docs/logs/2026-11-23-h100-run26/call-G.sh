#!/bin/bash
# Run 26 call G: after the library's pick up to 128 rows became whichever of
# versions 19 and 13 the split model predicts faster (host only; the PTX is
# call E's and F's): the int4 linear and raw-launch GPU tests.
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-G.txt
for t in int4_linear raw_launch; do echo "=== tests/$t" >> $L/tests-G.log; timeout 150 tests/$t >> $L/tests-G.log 2>&1; echo "$t exit $?"; done
grep -hE "^===|test result|FAILED|panicked" $L/tests-G.log | head -20
