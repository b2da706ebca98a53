#!/bin/bash
# Run 47 call C (H100): fcf84f3 (versions 22 and 23 multiply by mma.sync
# a warp): the whole bf16 int4 report and PyTorch's linear
# peers in the same sitting, and their comparison (the README's int4
# table), as run 46's call B. Then, side by side once the timings are
# done, every GPU test binary, and compute-sanitizer memcheck, synccheck
# and racecheck of the ragged-tile test (every tiled version, split and
# unsplit).
cd .carry && rm -rf tests && tar xJf t.tar.xz && xz -dc qk.xz > quant-kernels && chmod +x quant-kernels && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-C.txt
timeout 300 ./quant-kernels bench --kernel "int4_linear bf16" --json $L/report-C.json --png $L/report-C.png > $L/bench-C.log 2>&1; echo "bench exit $? at $(( $(date +%s) - START )) s"; tail -1 $L/bench-C.log
date -u >> $L/device-C.txt
tar czf $OUT/logs-C.tar.gz -C $L .
timeout 130 python3 torch_peers.py --only linear --json $L/torch-C.json > $L/peers-C.log 2>&1; echo "peers exit $? at $(( $(date +%s) - START )) s"; tail -1 $L/peers-C.log
python3 compare.py $L/report-C.json $L/torch-C.json --markdown $L/compare-C.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare-C.md | cut -d'|' -f2-5,8,12,13
date -u >> $L/device-C.txt
gzip -k $L/bench-C.log $L/report-C.json && rm $L/bench-C.log
tar czf $OUT/logs-C.tar.gz -C $L .
LEFT=$(( 575 - ($(date +%s) - START) ))
tests() {
  for t in int4_linear int4_weights raw_launch graph ptx add_mul_exp quantize_int8; do
    REQUIRE_GPU=1 timeout $(( 575 - ($(date +%s) - START) )) ./tests/$t > $L/tests-$t-C.log 2>&1; echo "$t exit $? at $(( $(date +%s) - START )) s" >> $L/tests-C.log
    grep -E "FAILED|failed|panicked|test result" $L/tests-$t-C.log | tail -3 >> $L/tests-C.log
  done
}
san() { # tool test
  REQUIRE_GPU=1 timeout $(( 575 - ($(date +%s) - START) )) compute-sanitizer --tool $1 ./tests/int4_linear --exact $2 > $L/sanitizer-$1-${2#gpu::}-C.log 2>&1
  echo "$1 $2 exit $? at $(( $(date +%s) - START )) s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test result' $L/sanitizer-$1-${2#gpu::}-C.log | tr '\n' ' ')" >> $L/sanitizers-C.log
}
echo "tests and sanitizers from $(( $(date +%s) - START )) s, $LEFT s left" | tee $L/tests-C.log
tests &
{ san racecheck gpu::gemm_tiles_ragged; san memcheck gpu::gemm_tiles_ragged; san synccheck gpu::gemm_tiles_ragged; } &
wait
cat $L/tests-C.log $L/sanitizers-C.log
date -u >> $L/device-C.txt
tar czf $OUT/logs-C.tar.gz -C $L .
