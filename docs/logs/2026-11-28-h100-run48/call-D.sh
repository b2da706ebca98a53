#!/bin/bash
# Run 48 call D (H100): version 17 at 16 activation rows with one 16-row
# weight tile a warp instead of two and a 128-register cap (`rt1`,
# `probe-v17-m16-one-tile-D.patch`), against 196747b (`base`). Call C
# found the `_m16_` loop at 254 registers, one block of 8 warps a
# multiprocessor (M = 1: two), waiting on global loads; `rt1` runs twice
# the blocks of half the rows, two a multiprocessor, and spills about 300
# bytes a thread. The int4 linear GPU tests of `rt1` first, then three
# rounds in alternating order, then memcheck and racecheck of the test
# of every version 17 block shape on `rt1`.
cd .carry && tar xJf t.tar.xz && for b in base rt1; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-D.txt
REQUIRE_GPU=1 timeout 120 ./tests/int4_linear > $L/tests-int4_linear-D.log 2>&1; echo "int4_linear exit $? at $(( $(date +%s) - START )) s" >> $L/tests-D.log
grep -E "FAILED|failed|panicked|test result" $L/tests-int4_linear-D.log | tail -5 >> $L/tests-D.log
cat $L/tests-D.log
tar czf $OUT/logs-D.tar.gz -C $L .
FILTERS=("16x4096x4096 _bf16 v17" "16x11008x4096 _bf16 v17" "16x4096x11008 _bf16 v17")
for b in base rt1 rt1 base base rt1; do
  for f in "${FILTERS[@]}"; do
    [ $(( $(date +%s) - START )) -gt 300 ] && { echo "$b $f not run: time" >> $L/ab-D.log; continue; }
    echo "### $b $f (at $(( $(date +%s) - START )) s)" >> $L/ab-D.log
    timeout 60 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-D.log
  done
  tar czf $OUT/logs-D.tar.gz -C $L .
done
san() { # tool test
  [ $(( $(date +%s) - START )) -gt 380 ] && { echo "$1 $2 not run: time" >> $L/sanitizers-D.log; return; }
  REQUIRE_GPU=1 timeout $(( 450 - ($(date +%s) - START) )) compute-sanitizer --tool $1 ./tests/int4_linear --exact $2 > $L/sanitizer-$1-${2#gpu::}-D.log 2>&1
  echo "$1 $2 exit $? at $(( $(date +%s) - START )) s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test result' $L/sanitizer-$1-${2#gpu::}-D.log | tr '\n' ' ')" >> $L/sanitizers-D.log
}
san memcheck gpu::v17_every_block_shape
san racecheck gpu::v17_every_block_shape
cat $L/sanitizers-D.log
date -u >> $L/device-D.txt
tar czf $OUT/logs-D.tar.gz -C $L .
