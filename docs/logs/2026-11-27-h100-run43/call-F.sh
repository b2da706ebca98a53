#!/bin/bash
# Run 43 call F (H100): the library's version 17 block for one-warp groups
# at half the block (`half`: 8 groups at M = 1, 4 past 8 rows, at 28672
# rows; base fills it, 16 and 8) against base at 28672x8192, bf16,
# symmetric, M = 1, 16, 32, two rounds in opposite orders; then the int4
# linear GPU tests of the half build.
cd .carry && rm -rf tests && tar xJf t.tar.xz && for b in base half; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-F.txt
for b in half base base half; do
  echo "### $b (at $(( $(date +%s) - START )) s)" >> $L/ab-F.log
  timeout 150 ./qk-$b bench --kernel "int4_linear _bf16 v17 28672x8192 sym" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-F.log
  tar czf $OUT/logs-F.tar.gz -C $L .
done
REQUIRE_GPU=1 timeout 200 ./tests/int4_linear > $L/tests-int4_linear-F.log 2>&1; echo "int4_linear exit $? at $(( $(date +%s) - START )) s" | tee -a $L/tests-F.log
grep -E "FAILED|failed|panicked|test result" $L/tests-int4_linear-F.log | tail -3 | tee -a $L/tests-F.log
date -u >> $L/device-F.txt
tar czf $OUT/logs-F.tar.gz -C $L .
