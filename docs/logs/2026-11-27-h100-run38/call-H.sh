#!/bin/bash
# Run 38 call H: call G's whole-line epilogue with its addresses worked out
# once a lane (qk-lines, tests: no spills in its path; call G's form spilled
# and was 4-9% slower): the int4 linear GPU tests, then an A/B against
# b55e3c6's library (qk-base), alternating, two rounds.
cd .carry && rm -rf tests && tar xJf t.tar.xz && for b in base lines; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=$OUT
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-H.txt
REQUIRE_GPU=1 timeout 150 ./tests/int4_linear > $L/tests-int4_linear-H.log 2>&1; echo "int4_linear exit $?" | tee -a $L/tests-H.log
grep -E "FAILED|failed|panicked|test result" $L/tests-int4_linear-H.log | tail -3 | tee -a $L/tests-H.log
for round in 1 2; do
  for f in "1024x4096x4096 _bf16 v13" "8192x4096x4096 _bf16 v13" "1024x11008x4096 _bf16 v13" "1024x28672x8192 _bf16 v13" "64x28672x8192 _bf16 v19" "16x28672x8192 _bf16 v23"; do
    for b in base lines; do
      [ $(( $(date +%s) - START )) -gt 400 ] && break 3
      echo "### round $round $b $f" >> $L/ab-H.log
      timeout 60 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" | grep -v split >> $L/ab-H.log
    done
  done
done
date -u >> $L/device-H.txt
