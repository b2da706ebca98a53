#!/bin/bash
# Run 35 call E: call D's A/B again (call D's qk-new sized the report's
# workspace for the first variant of a case, the unsplit one, and its split
# cases failed with a length error; the tests passed): the A/B of
# be4963c (qk-base: the report's split calls take their workspace from the
# pool) against this build (qk-new: from a buffer the report owns), bf16,
# the split shapes (28672 x 8192 runs unsplit to M = 64) and M = 128 at
# 4096 x 4096 (version 19) and 11008 x 4096 (version 13), two rounds.
cd .carry && for b in base new; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-E.txt
date -u >> $L/device-E.txt
for round in 1 2; do for f in "16x4096x _bf16 v23" "16x11008x4096 _bf16 v23" "16x8192x28672 _bf16 v23" "64x4096x _bf16 v19" "64x11008x4096 sym _bf16 v19" "128x4096x4096 _bf16 v19" "128x11008x4096 _bf16 v13"; do for b in base new; do
  echo "### round $round $b $f" >> $L/ab-E.log
  timeout 60 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "split.*graph cold" >> $L/ab-E.log
done; done; done
date -u >> $L/device-E.txt
