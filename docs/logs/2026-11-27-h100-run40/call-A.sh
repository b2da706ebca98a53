#!/bin/bash
# Run 40 call A: the whole-step loop of versions 5, 6 and 17 (no bounds
# tests, no zeroed registers and the scales as one vector in the batches
# whose steps are whole; activation rows past m clamped, not tested): the
# int4 linear, PTX, raw-launch and graph GPU tests, the sanitizers of the
# decode tests; then an A/B against 930cf49 (qk-base), alternating, M = 1
# and 16 on the five shapes, version 17 in its blocks, two rounds.
cd .carry && rm -rf tests && tar xJf t.tar.xz && xz -dc qk-base.xz > qk-base && xz -dc quant-kernels.xz > qk-new && chmod +x qk-base qk-new && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-A.txt
for t in int4_linear ptx raw_launch graph; do
  REQUIRE_GPU=1 timeout 150 ./tests/$t > $L/tests-$t-A.log 2>&1; echo "$t exit $?" | tee -a $L/tests-A.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-A.log | tail -3 | tee -a $L/tests-A.log
done
sanitize() {
  LEFT=$(( $3 - ($(date +%s) - START) ))
  [ $LEFT -lt 20 ] && { echo "$1 $2 not run: out of time" | tee -a $L/tests-A.log; return; }
  REQUIRE_GPU=1 timeout $LEFT compute-sanitizer --tool $1 ./tests/int4_linear --exact $2 > $L/sanitizer-$1-${2#gpu::}-A.log 2>&1
  echo "$1 $2 exit $? (limit $LEFT s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test result' $L/sanitizer-$1-${2#gpu::}-A.log | tr '\n' ' ')" | tee -a $L/tests-A.log
}
for tool in memcheck racecheck synccheck; do
  sanitize $tool gpu::v17_every_block_shape 200
  sanitize $tool gpu::tensor_core_versions_every_block_size 220
done
sanitize memcheck gpu::matches_reference_every_group_mode_and_batch 260
date -u >> $L/device-A.txt
tar czf $OUT/logs-A.tar.gz -C $L .
for round in 1 2; do
  for m in 1 16; do
    for s in 4096x4096 11008x4096 4096x11008 28672x8192 8192x28672; do
      for b in base new; do
        [ $(( $(date +%s) - START )) -gt 560 ] && break 4
        echo "### round $round $b ${m}x$s" >> $L/ab-A.log
        timeout 30 ./qk-$b bench --kernel "int4_linear ${m}x$s _bf16 v17" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-A.log
      done
    done
  done
done
date -u >> $L/device-A.txt
tar czf $OUT/logs-A.tar.gz -C $L .
