#!/bin/bash
# Run 50 call D (H200): 1dea1c8 (HEAD: the decode GEMV's L2 prefetch one
# batch ahead, each code line asked for once; kernels otherwise 5a9ef91's).
# The whole bf16 int4 report and PyTorch's linear peers in the same sitting
# and their comparison, as run 49's call A. Then every GPU test binary
# beside compute-sanitizer on the changed body (versions 5, 6 and 17):
# memcheck, racecheck and synccheck of `v17_every_block_shape`, memcheck of
# `matches_reference_every_group_mode_and_batch` (every version, G and mode).
# Predicted before the call: M = 1 0.6-5.7% faster than run 49's call A on
# the five shapes (call C's A/B), every other M within run-to-run noise
# (1-2%), the picks unchanged and within 2% of the fastest version; every
# test and sanitizer clean.
cd .carry && rm -rf tests && tar xJf t.tar.xz && xz -dc qk.xz > quant-kernels && chmod +x quant-kernels && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit,memory.total --format=csv,noheader; } | tee $L/device-D.txt
timeout 330 ./quant-kernels bench --kernel "int4_linear bf16" --json $L/report-D.json --png $L/report-D.png > $L/bench-D.log 2>&1; echo "bench exit $? at $(( $(date +%s) - START )) s"; tail -1 $L/bench-D.log
date -u >> $L/device-D.txt
tar czf $OUT/logs-D.tar.gz -C $L .
timeout 130 python3 torch_peers.py --only linear --json $L/torch-D.json > $L/peers-D.log 2>&1; echo "peers exit $? at $(( $(date +%s) - START )) s"; tail -1 $L/peers-D.log
python3 compare.py $L/report-D.json $L/torch-D.json --markdown $L/compare-D.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare-D.md | cut -d'|' -f2-5,8,12,13
date -u >> $L/device-D.txt
gzip -k $L/bench-D.log $L/report-D.json && rm $L/bench-D.log
tar czf $OUT/logs-D.tar.gz -C $L .
tests() {
  for t in int4_linear int4_weights raw_launch graph ptx add_mul_exp quantize_int8; do
    REQUIRE_GPU=1 timeout $(( 580 - ($(date +%s) - START) )) ./tests/$t > $L/tests-$t-D.log 2>&1; echo "$t exit $? at $(( $(date +%s) - START )) s" >> $L/tests-D.log
    grep -E "FAILED|failed|panicked|test result" $L/tests-$t-D.log | tail -3 >> $L/tests-D.log
  done
}
san() { # tool test
  [ $(( $(date +%s) - START )) -gt 560 ] && { echo "$1 $2 not run: time" >> $L/sanitizers-D.log; return; }
  REQUIRE_GPU=1 timeout $(( 580 - ($(date +%s) - START) )) compute-sanitizer --tool $1 ./tests/int4_linear --exact $2 > $L/sanitizer-$1-${2#gpu::}-D.log 2>&1
  echo "$1 $2 exit $? at $(( $(date +%s) - START )) s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test result' $L/sanitizer-$1-${2#gpu::}-D.log | tr '\n' ' ')" >> $L/sanitizers-D.log
}
echo "tests and sanitizers from $(( $(date +%s) - START )) s" | tee $L/tests-D.log
tests &
{ san memcheck gpu::v17_every_block_shape; san racecheck gpu::v17_every_block_shape; san synccheck gpu::v17_every_block_shape; san memcheck gpu::matches_reference_every_group_mode_and_batch; } &
wait
cat $L/tests-D.log $L/sanitizers-D.log
date -u >> $L/device-D.txt
tar czf $OUT/logs-D.tar.gz -C $L .
