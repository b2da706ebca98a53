#!/bin/bash
# Run 48 call B (H100): the build to commit, 3a56710 with call A's
# `nofence` (the 16-row consumers skip the `fence.proxy.async` after each
# full-barrier wait; only versions 22 and 23 change, their PTX the same as
# call A's `nofence` build's): the whole bf16 int4 report and PyTorch's
# linear peers in the same sitting, and their comparison (the README's
# int4 table), as run 47's call C. Then, side by side once the timings
# are done, every GPU test binary, and compute-sanitizer memcheck,
# synccheck and racecheck of the ragged-tile test (every tiled version,
# split and unsplit).
cd .carry && rm -rf tests && tar xJf t.tar.xz && xz -dc qk.xz > quant-kernels && chmod +x quant-kernels && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-B.txt
timeout 300 ./quant-kernels bench --kernel "int4_linear bf16" --json $L/report-B.json --png $L/report-B.png > $L/bench-B.log 2>&1; echo "bench exit $? at $(( $(date +%s) - START )) s"; tail -1 $L/bench-B.log
date -u >> $L/device-B.txt
tar czf $OUT/logs-B.tar.gz -C $L .
timeout 130 python3 torch_peers.py --only linear --json $L/torch-B.json > $L/peers-B.log 2>&1; echo "peers exit $? at $(( $(date +%s) - START )) s"; tail -1 $L/peers-B.log
python3 compare.py $L/report-B.json $L/torch-B.json --markdown $L/compare-B.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare-B.md | cut -d'|' -f2-5,8,12,13
date -u >> $L/device-B.txt
gzip -k $L/bench-B.log $L/report-B.json && rm $L/bench-B.log
tar czf $OUT/logs-B.tar.gz -C $L .
LEFT=$(( 575 - ($(date +%s) - START) ))
tests() {
  for t in int4_linear int4_weights raw_launch graph ptx add_mul_exp quantize_int8; do
    REQUIRE_GPU=1 timeout $(( 575 - ($(date +%s) - START) )) ./tests/$t > $L/tests-$t-B.log 2>&1; echo "$t exit $? at $(( $(date +%s) - START )) s" >> $L/tests-B.log
    grep -E "FAILED|failed|panicked|test result" $L/tests-$t-B.log | tail -3 >> $L/tests-B.log
  done
}
san() { # tool test
  REQUIRE_GPU=1 timeout $(( 575 - ($(date +%s) - START) )) compute-sanitizer --tool $1 ./tests/int4_linear --exact $2 > $L/sanitizer-$1-${2#gpu::}-B.log 2>&1
  echo "$1 $2 exit $? at $(( $(date +%s) - START )) s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test result' $L/sanitizer-$1-${2#gpu::}-B.log | tr '\n' ' ')" >> $L/sanitizers-B.log
}
echo "tests and sanitizers from $(( $(date +%s) - START )) s, $LEFT s left" | tee $L/tests-B.log
tests &
{ san racecheck gpu::gemm_tiles_ragged; san memcheck gpu::gemm_tiles_ragged; san synccheck gpu::gemm_tiles_ragged; } &
wait
cat $L/tests-B.log $L/sanitizers-B.log
date -u >> $L/device-B.txt
tar czf $OUT/logs-B.tar.gz -C $L .
