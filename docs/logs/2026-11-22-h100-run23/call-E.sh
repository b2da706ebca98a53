#!/bin/bash
# Run 23 call E: the report's --sweep now skips blocks larger than a
# kernel's registers allow (v5 and v6 at 512 threads for 16 activation
# rows), instead of failing them: the M = 16 sweep of every GEMV version
# at 4096x4096 must end with exit status 0.
cd .carry && L=$OUT && xz -dk b/qk-e.xz
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-E.txt
timeout 120 ./b/qk-e bench --kernel "g128_bf16 16x4096x4096" --sweep --json /tmp/e.json --png /tmp/e.png > $L/sweep-E.log 2>&1; echo "exit $?"
grep -E "^\[" $L/sweep-E.log | grep -v asym | sed -E 's/^\[[ 0-9.]+s\] //; s/ graph cold//; s/, rel l2 [0-9.e-]+//'; grep -c FAIL $L/sweep-E.log; tail -2 $L/sweep-E.log
