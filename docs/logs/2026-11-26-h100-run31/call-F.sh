#!/bin/bash
# Run 31 call F: compute-sanitizer memcheck of call E's int4 linear test
# binary (the final host code, cfdc69e's pick; huge and CPU tests skipped).
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-F.txt
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 99 tests/int4_linear --skip huge --skip cpu:: --test-threads=1 > $L/sanitizer-memcheck-F.log 2>&1; echo "memcheck exit $?"
grep -hE "ERROR SUMMARY|test result" $L/sanitizer-memcheck-F.log
