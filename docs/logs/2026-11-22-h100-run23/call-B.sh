#!/bin/bash
# Run 23 call B: version 17 with the warps of a group fixed at compile time
# for every power of two (`_w1_` to `_w16_`), an experiment. In this build
# versions 5 and 6 still read their warps from the block, so `v5 bN` against
# `v17 groups 1 bN` (and v6 for M = 16) is the A/B of the constant stride in
# one binary; then the _w1_-only build (call A's) for version 17 as it was.
cd .carry && L=$OUT && for b in fixed w1; do xz -dk b/qk-$b.xz; done
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-B.txt
echo "== fixed"; timeout 200 ./b/qk-fixed bench --kernel "g128_bf16" --sweep --json $L/sweep-fixed-B.json --png /tmp/b.png > $L/bench-fixed-B.log 2>&1; echo "exit $?"
echo "== w1"; timeout 100 ./b/qk-w1 bench --kernel "v17 g128_bf16" --sweep --json /tmp/b.json --png /tmp/b.png > $L/bench-w1-B.log 2>&1; echo "exit $?"
for b in fixed w1; do echo "== $b"; grep -hE "^\[" $L/bench-$b-B.log | grep -v -E "asym|cuMemcpy" | grep -E " (1|16)x" | sed -E 's/^\[[ 0-9.]+s\] //; s/ graph cold//; s/int4_linear_//; s/, rel l2 [0-9.e-]+//; s/ g128: / /'; done
