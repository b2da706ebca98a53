#!/bin/bash
# Run 22 call E: a probe (probe-rows-split-E.patch): versions 5 and 6 with
# the block's warps on different rows, each over all of K, so that they read
# the same activations close in time (L1 hits) instead of splitting K.
cd .carry && L=$OUT
xz -dk b/qk-rows.xz
for c in "16x28672x8192" "16x11008x4096" "16x8192x28672" "1x28672x8192"; do
  ./b/qk-rows bench --kernel "g128_bf16 $c sym" --sweep --json /tmp/b.json --png /tmp/b.png
done > $L/bench-rows-E.log 2>&1
grep -hE "^\[" $L/bench-rows-E.log | grep -v -E "asym|cuMemcpy" | sed -E 's/^\[[ 0-9.]+s\] //; s/ graph cold//; s/int4_linear_//; s/, rel l2 [0-9.e-]+//'
