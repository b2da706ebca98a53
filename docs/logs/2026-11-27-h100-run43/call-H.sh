#!/bin/bash
# Run 43 call H (H100): `pre`, the decode GEMV asking the L2 before the
# grid wait for at most half of a warp's batches (call G's `p1` where a
# warp has two, base's two elsewhere; 12f2076 plus the change) against
# base, version 17 at M = 1 and 16, bf16, both modes, the five shapes, two
# rounds in opposite orders; then `pre`'s int4 linear, PTX, raw-launch
# and graph GPU tests and compute-sanitizer on its version 17 block test.
cd .carry && rm -rf tests && tar xJf t.tar.xz && for b in base pre; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-H.txt
for b in base pre pre base; do
  for m in 1x 16x; do
    [ $(( $(date +%s) - START )) -gt 330 ] && { echo "$b $m not run: time" >> $L/ab-H.log; continue; }
    echo "### $b $m (at $(( $(date +%s) - START )) s)" >> $L/ab-H.log
    timeout 100 ./qk-$b bench --kernel "int4_linear _bf16 v17 $m" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-H.log
    tar czf $OUT/logs-H.tar.gz -C $L .
  done
done
for t in int4_linear ptx raw_launch graph; do
  REQUIRE_GPU=1 timeout 150 ./tests/$t > $L/tests-$t-H.log 2>&1; echo "$t exit $? at $(( $(date +%s) - START )) s" | tee -a $L/tests-H.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-H.log | tail -3 | tee -a $L/tests-H.log
done
for tool in memcheck racecheck synccheck; do
  REQUIRE_GPU=1 timeout 60 compute-sanitizer --tool $tool ./tests/int4_linear --exact gpu::v17_every_block_shape > $L/sanitizer-$tool-v17_every_block_shape-H.log 2>&1
  echo "$tool exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test result' $L/sanitizer-$tool-v17_every_block_shape-H.log | tr '\n' ' ')" | tee -a $L/tests-H.log
done
date -u >> $L/device-H.txt
tar czf $OUT/logs-H.tar.gz -C $L .
