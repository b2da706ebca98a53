#!/bin/bash
# Run 56 call E (H200): call D's raw_launch failure fixed (the plan now
# says when versions 19, 23 and 24 take the packed constants in the
# scales' place: `Int4LinearPlan::packed_constants`; the cudarc engine test
# passes them). The raw_launch and int4_linear test binaries of the fix.
cd .carry && for t in raw_launch int4_linear; do xz -d $t.xz && chmod +x $t; done
L=$OUT && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-E.txt
export REQUIRE_GPU=1
for t in raw_launch int4_linear; do
    timeout 110 ./$t > $L/tests-$t-E.log 2>&1
    echo "$t exit $? at $(( $(date +%s) - START )) s: $(grep -E 'test result' $L/tests-$t-E.log)" | tee -a $L/device-E.txt
done
date -u >> $L/device-E.txt
