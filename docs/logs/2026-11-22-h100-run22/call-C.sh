#!/bin/bash
# Run 22 call C: version 16 with each block starting at a different stage
# (build b/qk-rot), against version 6, at M = 16 on every shape.
cd .carry && L=$OUT
xz -dk b/qk-rot.xz
for s in 4096x4096 11008x4096 4096x11008 28672x8192 8192x28672; do
  ./b/qk-rot bench --kernel "g128_bf16 16x$s sym" --json /tmp/b.json --png /tmp/b.png
done > $L/bench-rot-C.log 2>&1
grep -hE "^\[" $L/bench-rot-C.log | grep -v asym | grep -E "v16|v6" | sed -E 's/^\[[ 0-9.]+s\] //; s/ graph cold//; s/int4_linear_//'
M='regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,lts__t_bytes.sum'
ncu -k regex:int4_linear_v16_g128_bf16 -c 1 --metrics "$M" ./b/qk-rot bench --kernel "v16_g128_bf16 rows 64 b512 16x8192x28672 sym" --iters 1 > $L/ncu-v16-rot-C.log 2>&1
grep -E "stalled|issue_active|dram__|duration|lts__t_bytes" $L/ncu-v16-rot-C.log | awk '$NF+0 > 0.3 || /duration|bytes|dram|issue_active/'
