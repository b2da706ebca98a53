#!/bin/bash
# Run 49 call A, the project's first on an H200 (the device tool now lends
# H200s, no longer H100s): a71ddfc (HEAD; its kernels are 5a9ef91's). The
# whole bf16 int4 report and PyTorch's linear peers in the same sitting and
# their comparison, as run 48's call B. Then, once the timings are done,
# every GPU test binary beside compute-sanitizer: racecheck, memcheck and
# synccheck of `producers_read_constant_windows` (the windowed path that
# 5a9ef91 gave version 23's short rows, which run 48 could not racecheck),
# then racecheck of the ragged-tile test if time is left.
cd .carry && rm -rf tests && tar xJf t.tar.xz && xz -dc qk.xz > quant-kernels && chmod +x quant-kernels && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit,memory.total --format=csv,noheader; } | tee $L/device-A.txt
timeout 330 ./quant-kernels bench --kernel "int4_linear bf16" --json $L/report-A.json --png $L/report-A.png > $L/bench-A.log 2>&1; echo "bench exit $? at $(( $(date +%s) - START )) s"; tail -1 $L/bench-A.log
date -u >> $L/device-A.txt
tar czf $OUT/logs-A.tar.gz -C $L .
timeout 130 python3 torch_peers.py --only linear --json $L/torch-A.json > $L/peers-A.log 2>&1; echo "peers exit $? at $(( $(date +%s) - START )) s"; tail -1 $L/peers-A.log
python3 compare.py $L/report-A.json $L/torch-A.json --markdown $L/compare-A.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare-A.md | cut -d'|' -f2-5,8,12,13
date -u >> $L/device-A.txt
gzip -k $L/bench-A.log $L/report-A.json && rm $L/bench-A.log
tar czf $OUT/logs-A.tar.gz -C $L .
tests() {
  for t in int4_linear int4_weights raw_launch graph ptx add_mul_exp quantize_int8; do
    REQUIRE_GPU=1 timeout $(( 580 - ($(date +%s) - START) )) ./tests/$t > $L/tests-$t-A.log 2>&1; echo "$t exit $? at $(( $(date +%s) - START )) s" >> $L/tests-A.log
    grep -E "FAILED|failed|panicked|test result" $L/tests-$t-A.log | tail -3 >> $L/tests-A.log
  done
}
san() { # tool test
  [ $(( $(date +%s) - START )) -gt 560 ] && { echo "$1 $2 not run: time" >> $L/sanitizers-A.log; return; }
  REQUIRE_GPU=1 timeout $(( 580 - ($(date +%s) - START) )) compute-sanitizer --tool $1 ./tests/int4_linear --exact $2 > $L/sanitizer-$1-${2#gpu::}-A.log 2>&1
  echo "$1 $2 exit $? at $(( $(date +%s) - START )) s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test result' $L/sanitizer-$1-${2#gpu::}-A.log | tr '\n' ' ')" >> $L/sanitizers-A.log
}
echo "tests and sanitizers from $(( $(date +%s) - START )) s" | tee $L/tests-A.log
tests &
{ san racecheck gpu::producers_read_constant_windows; san memcheck gpu::producers_read_constant_windows; san synccheck gpu::producers_read_constant_windows; san racecheck gpu::gemm_tiles_ragged; } &
wait
cat $L/tests-A.log $L/sanitizers-A.log
date -u >> $L/device-A.txt
tar czf $OUT/logs-A.tar.gz -C $L .
