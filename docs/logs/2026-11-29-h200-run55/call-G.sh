#!/bin/bash
# Run 55 call G (H200): a second sitting for the planner change of
# 7a74e0f (version 23, not 22, for the split calls of rows longer than
# 8192 at 9 to 16 rows). HEAD's report on the two shapes at M = 16, every
# version (so also version 17, 3 and the library's block), three rounds,
# bf16, G = 128, both modes. Predicted as call E: version 23 faster than
# 22 at 8192 x 28672 split 4 (2.7-5.4%) and at 4096 x 11008 split 8
# without zero points (3%), 3% slower there with them; the library's
# pick within 2% of the fastest but that one case.
cd .carry
L=$OUT && mkdir -p $L
START=$(date +%s); export START
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-G.txt
for r in 1 2 3; do
    ./device-ab.sh $L/ab-G.log 200 1 "_bf16 16x4096x11008" head
    ./device-ab.sh $L/ab-G.log 200 1 "_bf16 16x8192x28672" head
done
echo "done at $(( $(date +%s) - START )) s" | tee -a $L/device-G.txt
date -u >> $L/device-G.txt
