#!/bin/bash
# Run 22 call I: version 17 as committed (b/qk-v17) against a build whose
# one-warp groups store their tiles straight from registers (b/qk-direct),
# alternating, with a sweep of blocks.
cd .carry && L=$OUT
for b in v17 direct; do xz -dk b/qk-$b.xz; done
for c in 16x28672x8192 1x28672x8192 16x8192x28672; do
  for b in v17 direct; do
    echo "== $b"; ./b/qk-$b bench --kernel "v17_m g128_bf16 $c sym" --sweep --json /tmp/b.json --png /tmp/b.png
  done
done > $L/bench-direct-I.log 2>&1
grep -hE "^== |^\[" $L/bench-direct-I.log | grep -v -E "asym|cuMemcpy" | sed -E 's/^\[[ 0-9.]+s\] //; s/ graph cold//; s/int4_linear_//; s/, rel l2 [0-9.e-]+//'
