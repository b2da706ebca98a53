#!/bin/bash
# Run 41 call E: racecheck of the ragged split-K test on 9a4c655, alone in
# a call (it ran past 253 s in runs 38 and 39).
cd .carry && rm -rf tests && tar xJf t.tar.xz && L=/tmp/logs && mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-E.txt
REQUIRE_GPU=1 timeout 560 compute-sanitizer --tool racecheck ./tests/int4_linear --exact gpu::split_k_ragged > $L/sanitizer-racecheck-split_k_ragged-E.log 2>&1
echo "racecheck gpu::split_k_ragged exit $?: $(grep -E 'RACECHECK SUMMARY|test result' $L/sanitizer-racecheck-split_k_ragged-E.log | tr '\n' ' ')" | tee $L/tests-E.log
date -u >> $L/device-E.txt
tar czf $OUT/logs-E.tar.gz -C $L .
