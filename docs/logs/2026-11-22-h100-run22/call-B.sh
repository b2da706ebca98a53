#!/bin/bash
# Run 22 call B: version 16 with 2 or 3 stages and the L2 prefetch 1 or 2
# stages ahead (builds b/qk-sSpP), and ncu's stall reasons for it and v6.
cd .carry && L=$OUT
for b in s2p1 s3p1 s3p2; do xz -dk b/qk-$b.xz; done
for b in s2p1 s3p1 s3p2; do
  for s in 4096x4096 4096x11008 28672x8192 8192x28672; do
    ./b/qk-$b bench --kernel "v16_g128_bf16 16x$s sym" --json /tmp/b.json --png /tmp/b.png
  done > $L/bench-$b-B.log 2>&1
  echo "== $b"; grep -hE "^\[" $L/bench-$b-B.log | grep -v asym | sed -E 's/^\[[ 0-9.]+s\] //; s/ graph cold//; s/int4_linear_v16_g128_bf16 //'
done
M='regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,lts__t_bytes.sum,sm__warps_active.avg.pct_of_peak_sustained_active'
ncu -k regex:int4_linear_v16_g128_bf16 -c 1 --metrics "$M" ./b/qk-s2p1 bench --kernel "v16_g128_bf16 rows 64 b512 16x8192x28672 sym" --iters 1 > $L/ncu-v16-B.log 2>&1
ncu -k regex:int4_linear_v6_m16_g128_bf16 -c 1 --metrics "$M" ./b/qk-s2p1 bench --kernel "v6_m16_g128_bf16 16x8192x28672 sym" --iters 1 > $L/ncu-v6-B.log 2>&1
for f in v16 v6; do echo "== ncu $f"; grep -E "stalled|issue_active|dram__|duration|lts__t_bytes|warps_active" $L/ncu-$f-B.log | awk '$NF+0 > 0.05 || /duration|bytes|dram|warps_active|issue_active/' ; done
