#!/bin/bash
# Run 47 call B (H100): versions 22 and 23 (16 activation rows) with
# `mma.sync` in place of the warpgroup MMAs: each consumer warp loads B
# (the stage's 16 activation rows, two 8-row halves) with one `ldmatrix.x4`
# a chunk and issues two m16n8k16 MMAs a row tile, so that the warps
# neither meet at each chunk's warpgroup MMA nor wait for asynchronous
# MMAs (SASS step loop 331 -> 317: no warpgroup fences, commits or waits,
# no descriptor arithmetic). `sync` is that build; `sumsync` adds call A's
# activation sums (`MAGIC + u` fragments, two MMAs of ones a chunk; 292);
# `base` is 409bad3. The int4 linear GPU tests of both builds side by
# side, then two rounds in opposite orders on the 16-row cases, version
# 19 as a control.
cd .carry && tar xJf t.tar.xz && for b in base sync sumsync; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-B.txt
for b in sync sumsync; do
  { REQUIRE_GPU=1 timeout 200 ./tests-$b/int4_linear > $L/tests-int4_linear-$b-B.log 2>&1; echo "$b int4_linear exit $? at $(( $(date +%s) - START )) s" >> $L/tests-B.log; } &
done
wait
for b in sync sumsync; do grep -E "FAILED|failed|panicked|test result" $L/tests-int4_linear-$b-B.log | tail -8 >> $L/tests-B.log; done
cat $L/tests-B.log
tar czf $OUT/logs-B.tar.gz -C $L .
FILTERS=("16x28672x8192 _bf16 v23" "16x8192x28672 _bf16 v2" "16x11008x4096 _bf16 v2" "16x4096x11008 _bf16 v22"
  "16x4096x4096 _bf16 v2" "64x28672x8192 _bf16 v19")
for b in base sync sumsync sumsync sync base; do
  for f in "${FILTERS[@]}"; do
    [ $(( $(date +%s) - START )) -gt 570 ] && { echo "$b $f not run: time" >> $L/ab-B.log; continue; }
    echo "### $b $f (at $(( $(date +%s) - START )) s)" >> $L/ab-B.log
    timeout 100 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-B.log
  done
  tar czf $OUT/logs-B.tar.gz -C $L .
done
date -u >> $L/device-B.txt
tar czf $OUT/logs-B.tar.gz -C $L .
