#!/bin/bash
# Run 48 call A (H100): version 19 (17-64 activation rows) with run 47's
# `mma.sync` consumers. Each consumer warp loads a chunk's B, 16
# activation rows at a time, with `ldmatrix.x4` (four of them for 64 rows)
# and issues 8 m16n8k16 MMAs a row tile, in place of one warpgroup MMA
# (m64n64k16) a tile and chunk (SASS step loop 510, 128 HMMA). Builds:
# `base` is 3a56710; `nofence` is run 47 call D's probe (no
# `fence.proxy.async` after the full-barrier wait where the consumers
# read the stage with `ldmatrix`), 16-row tile only; `sync32` is both, for
# versions 19 and 18 too. The GPU tests of `sync32` (every binary) first,
# then three rounds of A/B in alternating orders, each case's f64 check on.
cd .carry && tar xJf t.tar.xz && for b in base nofence sync32; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-A.txt
for t in int4_linear ptx int4_weights raw_launch graph add_mul_exp quantize_int8; do
  REQUIRE_GPU=1 timeout 150 ./tests/$t > $L/tests-$t-A.log 2>&1; echo "$t exit $? at $(( $(date +%s) - START )) s" >> $L/tests-A.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-A.log | tail -3 >> $L/tests-A.log
done
cat $L/tests-A.log
tar czf $OUT/logs-A.tar.gz -C $L .
FILTERS=("64x4096x4096 _bf16 v19" "64x11008x4096 _bf16 v19" "64x4096x11008 _bf16 v19" "64x28672x8192 _bf16 v19"
  "64x8192x28672 _bf16 v19" "32x4096x11008 _bf16 v19" "16x8192x28672 _bf16 v22" "16x11008x4096 _bf16 v23"
  "16x4096x11008 _bf16 v22" "16x4096x4096 _bf16 v23")
for b in base nofence sync32 sync32 nofence base base sync32; do
  for f in "${FILTERS[@]}"; do
    [ $(( $(date +%s) - START )) -gt 560 ] && { echo "$b $f not run: time" >> $L/ab-A.log; continue; }
    echo "### $b $f (at $(( $(date +%s) - START )) s)" >> $L/ab-A.log
    timeout 60 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-A.log
  done
  tar czf $OUT/logs-A.tar.gz -C $L .
done
date -u >> $L/device-A.txt
tar czf $OUT/logs-A.tar.gz -C $L .
