#!/bin/bash
# Run 28 call C: why version 23 lost at 16 x 8192 x 28672 split 4 (call B).
# a: version 23 as committed (with the k = 0 map fix), and version 22 from
# the same binary; b: qweight's map without L2 promotion
# (probe-l2-promotion-none-C.patch); c: each step's codes as two TMA copies
# of 8 bands (probe-two-boxes-C.patch).
cd .carry && tar xJf t.tar.xz && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-C.txt
run() { echo "=== $1 $2" >> $L/bench-C.log; timeout 100 ./qk-$1 bench --kernel "$2" --json /tmp/r.json --png /tmp/r.png >> $L/bench-C.log 2>&1; echo "$1 $2 exit $?"; }
for s in 16x8192x28672 16x28672x8192; do
  run a "v22 $s sym bf16"; for b in a b c; do run $b "v23 $s sym bf16"; done
done
run a "v22 16x8192x28672 sym bf16"; run a "v23 16x8192x28672 sym bf16"
grep -E "^===|graph cold" $L/bench-C.log | grep -v memcpy | sed 's/^\[ *[0-9.]* s\] //' | cut -c1-110
