#!/bin/bash
# Run 47 call A (H100): versions 22 and 23 (16 activation rows) at G = 128
# multiply `MAGIC + u` straight from the lop3 and take `(MAGIC + z)` times
# each step's activation sums (one more MMA a chunk, of ones in shared
# memory) from the step's sums in f32: no packed subtract a weight pair
# (SASS step loop 331 -> 296). `sums` is that build, `sums2` the same with
# two MMA groups pending a chunk in that path instead of one; `base` is
# 409bad3. First the int4 linear GPU tests of `sums`, then two rounds in
# opposite orders on the 16-row cases, version 19 as a control.
cd .carry && tar xJf t.tar.xz && for b in base sums sums2; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-A.txt
REQUIRE_GPU=1 timeout 150 ./tests/int4_linear > $L/tests-int4_linear-A.log 2>&1; echo "int4_linear exit $? at $(( $(date +%s) - START )) s" | tee -a $L/tests-A.log
grep -E "FAILED|failed|panicked|test result" $L/tests-int4_linear-A.log | tail -5 | tee -a $L/tests-A.log
tar czf $OUT/logs-A.tar.gz -C $L .
FILTERS=("16x28672x8192 _bf16 v23" "16x8192x28672 _bf16 v2" "16x11008x4096 _bf16 v2" "16x4096x11008 _bf16 v22"
  "16x4096x4096 _bf16 v2" "64x28672x8192 _bf16 v19")
for b in base sums sums2 sums2 sums base; do
  for f in "${FILTERS[@]}"; do
    [ $(( $(date +%s) - START )) -gt 570 ] && { echo "$b $f not run: time" >> $L/ab-A.log; continue; }
    echo "### $b $f (at $(( $(date +%s) - START )) s)" >> $L/ab-A.log
    timeout 100 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-A.log
  done
  tar czf $OUT/logs-A.tar.gz -C $L .
done
date -u >> $L/device-A.txt
tar czf $OUT/logs-A.tar.gz -C $L .
