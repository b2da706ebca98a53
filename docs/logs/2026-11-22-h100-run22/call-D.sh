#!/bin/bash
# Run 22 call D: versions 5 and 6 with each block starting its K loop at a
# different round (b/qk-v5rot) against the committed code (b/qk-base), M = 1
# and 16, every shape, the two builds alternating shape by shape.
cd .carry && L=$OUT
for b in base v5rot; do xz -dk b/qk-$b.xz; done
for s in 4096x4096 11008x4096 4096x11008 28672x8192 8192x28672; do
  for m in 1 16; do
    for b in base v5rot; do
      echo "== $b"; ./b/qk-$b bench --kernel "g128_bf16 ${m}x$s sym" --json /tmp/b.json --png /tmp/b.png
    done
  done
done > $L/bench-v5rot-D.log 2>&1
grep -hE "^== |^\[" $L/bench-v5rot-D.log | grep -v -E "asym|cuMemcpy" | sed -E 's/^\[[ 0-9.]+s\] //; s/ graph cold//; s/int4_linear_//; s/, rel l2.*//'
