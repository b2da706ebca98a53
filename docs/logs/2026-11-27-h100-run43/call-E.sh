#!/bin/bash
# Run 43 call E (H100): version 17's one-warp groups a block chosen so
# that the busiest multiprocessor has the fewest warps (`balanced`,
# balanced-groups.patch: 14 groups a block at 28672 rows and M = 1, where
# base takes 16; the report also times half, 7 against 8) against base,
# at 28672x8192, bf16, symmetric, M = 1, 16, 32; two rounds in opposite
# orders, then once each `--serialized`; then the int4 linear GPU tests of
# the balanced build.
cd .carry && rm -rf tests && tar xJf t.tar.xz && for b in base balanced; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-E.txt
for run in "base" "balanced" "balanced" "base" "base --serialized" "balanced --serialized"; do
  set -- $run
  echo "### $run (at $(( $(date +%s) - START )) s)" >> $L/ab-E.log
  timeout 150 ./qk-$1 bench $2 --kernel "int4_linear _bf16 v17 28672x8192 sym" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-E.log
  tar czf $OUT/logs-E.tar.gz -C $L .
done
REQUIRE_GPU=1 timeout 200 ./tests/int4_linear > $L/tests-int4_linear-E.log 2>&1; echo "int4_linear exit $? at $(( $(date +%s) - START )) s" | tee -a $L/tests-E.log
grep -E "FAILED|failed|panicked|test result" $L/tests-int4_linear-E.log | tail -3 | tee -a $L/tests-E.log
date -u >> $L/device-E.txt
tar czf $OUT/logs-E.tar.gz -C $L .
