#!/bin/bash
# Run 21 call D: ncu of version 15 (8 stages) at 1x28672x8192 bf16, blocks of 8 and 2 warps.
cd .carry && L=$OUT
xz -dk b/qk8.xz 2>/dev/null
for b in b256 b64; do
ncu -k int4_linear_v15_g128_bf16 -c 1 --set full --import-source no ./b/qk8 bench --kernel "int4_linear_v15_g128_bf16 $b 1x28672x8192 sym" --sweep --iters 1 > $L/ncu-v15-$b-D.log 2>&1
done
grep -E "Duration|DRAM Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit|Shared Memory Configuration|Dynamic Shared|Warp Cycles Per Issued|Issue Slots Busy" $L/ncu-v15-b256-D.log
