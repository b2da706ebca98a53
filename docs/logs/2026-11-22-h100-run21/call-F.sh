#!/bin/bash
# Run 21 call F: racecheck of the int4 tests on the shipped code (9bb7819's PTX, as run 20 measured), part 3.
cd .carry && tar xJf bins.tar.xz && L=$OUT
STEPS=sanitizer SANITIZE_RUNS="racecheck:int4_linear:matches_reference" ./gpu-check.sh /tmp/san > /dev/null 2>&1
cp /tmp/san/checks.log $L/racecheck-F.log; grep -E "SUMMARY|test result|exit" $L/racecheck-F.log
