#!/bin/bash
# Run 21 call E: racecheck of the int4 tests on the shipped code (9bb7819's PTX, as run 20 measured), parts 1 and 2.
cd .carry && tar xJf bins.tar.xz && L=$OUT
STEPS=sanitizer SANITIZE_RUNS="racecheck:int4_linear:gemm_tiles_ragged racecheck:int4_linear:split_k_ragged" ./gpu-check.sh /tmp/san > /dev/null 2>&1
cp /tmp/san/checks.log $L/racecheck-E.log; grep -E "SUMMARY|test result|exit" $L/racecheck-E.log
