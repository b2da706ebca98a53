#!/bin/bash
# Run 28 call A: probes of version 22's step at M = 16 (wrong results, for
# timing only): without the producers' code copies (probe-no-code-copies.patch:
# the bound on what copying the codes with the TMA unit could save), without
# the consumers' scale multiply (probe-no-scale.patch: the bound on deferring
# the scale to the f32 accumulators), and without both; base is f8ecfe6.
cd .carry && tar xJf t.tar.xz && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-A.txt
run() { echo "=== $1 $2" >> $L/bench-A.log; timeout 120 ./qk-$1 bench --kernel "$2" --json /tmp/r.json --png /tmp/r.png >> $L/bench-A.log 2>&1; echo "$1 $2 exit $?"; }
for b in base nocodes noscale both; do run $b "v22 16x sym bf16"; done
for b in base nocodes noscale both; do run $b "v19 64x28672x8192 sym bf16"; done
grep -E "^===|graph cold" $L/bench-A.log | grep -v memcpy | sed 's/^\[ *[0-9.]* s\] //' | cut -c1-100
