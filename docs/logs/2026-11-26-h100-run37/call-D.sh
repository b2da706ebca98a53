#!/bin/bash
# Run 37 call D: a probe (qk-probe, call C's build with a probe in the host's
# launch plan, not committed): with QK_RESIDENT set, versions 12 and 13 run
# one resident wave of blocks, each taking several activation tiles in
# turn (gridDim.y = 132 / blocks along n), where that adds no wave; the
# producers then fill a block's next tile while its consumers store the
# last. The same binary with and without it, interleaved, one round.
cd .carry && xz -dc qk-probe.xz > qk-probe && chmod +x qk-probe && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-D.txt
for f in "1024x11008x4096 _bf16 v13" "8192x11008x4096 _bf16 v13" "8192x4096x4096 _bf16 v13" "8192x4096x11008 _bf16 v13" "1024x8192x28672 _bf16 v13" "8192x8192x28672 _bf16 v13"; do for r in launched resident; do
  echo "### $r $f" >> $L/probe-D.log
  if [ $r = resident ]; then export QK_RESIDENT=1; else unset QK_RESIDENT; fi
  timeout 40 ./qk-probe bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/probe-D.log
done; done
date -u >> $L/device-D.txt
