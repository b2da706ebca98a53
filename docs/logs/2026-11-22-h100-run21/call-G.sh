#!/bin/bash
# Run 21 call G: racecheck of the int4 tests on the shipped code (9bb7819's PTX, as run 20 measured), part 4 (the rest).
cd .carry && tar xJf bins.tar.xz && L=$OUT
STEPS=sanitizer SANITIZE_RUNS="racecheck:int4_linear:--skip,ragged,--skip,matches_reference" ./gpu-check.sh /tmp/sanG > /dev/null 2>&1
cp /tmp/sanG/checks.log $L/racecheck-G.log; grep -E "SUMMARY|test result|exit" $L/racecheck-G.log
