#!/bin/bash
# Run 28 call G: two probes of version 23's producers where it loses (8192 x
# 28672 split 4) and where it wins (28672 x 8192), against the final build
# (base): p1 issues the codes' TMA copy after the step's constants are
# stored (probe-copy-after-constants-G.patch); p2 loads each step's
# constants during the step before (probe-constants-ahead-G.patch, run 27's
# P, which version 22 did not gain from).
cd .carry && tar xJf t.tar.xz && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-G.txt
run() { echo "=== $1 $2" >> $L/bench-G.log; timeout 100 ./qk-$1 bench --kernel "$2" --json /tmp/r.json --png /tmp/r.png >> $L/bench-G.log 2>&1; echo "$1 $2 exit $?"; }
for b in base p1 p2 base; do run $b "v23 split 4 16x8192x28672 bf16"; run $b "v23 16x28672x8192 bf16"; done
for b in base p2; do run $b "v22 split 4 16x8192x28672 bf16"; done
grep -E "^===|graph cold" $L/bench-G.log | grep -v memcpy | sed 's/^\[ *[0-9.]* s\] //' | cut -c1-110
