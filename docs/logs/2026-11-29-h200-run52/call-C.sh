#!/bin/bash
# Run 52 call C (H200): every GPU test of every test binary on HEAD (the
# build of call B), through scripts/gpu-check.sh.
# Predicted before the call: all pass (call A ran the int4 linear binary
# of 0327715, whose kernels these are).
cd .carry && rm -rf tests && tar xJf t.tar.xz
L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-C.txt
STEPS="tests" timeout 400 ./gpu-check.sh $L/c > /dev/null 2>&1; echo "gpu-check exit $? at $(( $(date +%s) - START )) s" | tee -a $L/device-C.txt
grep -E "^== |test result|FAILED" $L/c/checks.log
date -u >> $L/device-C.txt
tar czf $OUT/logs-C.tar.gz -C $L .
