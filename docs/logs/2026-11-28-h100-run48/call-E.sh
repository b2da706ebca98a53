#!/bin/bash
# Run 48 call E (H100): versions 22 and 23 with the producers' constant
# windows on the short rows of symmetric layers too (`win`: `windows on
# short rows`, as version 13; k <= 8192 at G = 128 kept a scalar load a
# step since run 33), against 631305b (`base`). Call B's report had the
# asymmetric 16 x 28672 x 8192 (windows) 6% faster than the symmetric
# (scalar loads). The int4 linear GPU tests of `win`, two rounds in
# alternating order on the symmetric 16-row cases with k <= 8192, then
# memcheck and synccheck of the ragged-tile test on `win` if time is left.
cd .carry && tar xJf t.tar.xz && for b in base win; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-E.txt
REQUIRE_GPU=1 timeout 110 ./tests/int4_linear > $L/tests-int4_linear-E.log 2>&1; echo "int4_linear exit $? at $(( $(date +%s) - START )) s" >> $L/tests-E.log
grep -E "FAILED|failed|panicked|test result" $L/tests-int4_linear-E.log | tail -5 >> $L/tests-E.log
cat $L/tests-E.log
tar czf $OUT/logs-E.tar.gz -C $L .
FILTERS=("16x28672x8192 _bf16 v2 sym" "16x4096x4096 _bf16 split_k v2 sym" "16x11008x4096 _bf16 split_k v2 sym")
for b in base win win base; do
  for f in "${FILTERS[@]}"; do
    [ $(( $(date +%s) - START )) -gt 230 ] && { echo "$b $f not run: time" >> $L/ab-E.log; continue; }
    echo "### $b $f (at $(( $(date +%s) - START )) s)" >> $L/ab-E.log
    timeout 60 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-E.log
  done
  tar czf $OUT/logs-E.tar.gz -C $L .
done
san() { # tool test
  [ $(( $(date +%s) - START )) -gt 245 ] && { echo "$1 $2 not run: time" >> $L/sanitizers-E.log; return; }
  REQUIRE_GPU=1 timeout $(( 280 - ($(date +%s) - START) )) compute-sanitizer --tool $1 ./tests/int4_linear --exact $2 > $L/sanitizer-$1-${2#gpu::}-E.log 2>&1
  echo "$1 $2 exit $? at $(( $(date +%s) - START )) s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test result' $L/sanitizer-$1-${2#gpu::}-E.log | tr '\n' ' ')" >> $L/sanitizers-E.log
}
san memcheck gpu::gemm_tiles_ragged
san synccheck gpu::gemm_tiles_ragged
cat $L/sanitizers-E.log
date -u >> $L/device-E.txt
tar czf $OUT/logs-E.tar.gz -C $L .
