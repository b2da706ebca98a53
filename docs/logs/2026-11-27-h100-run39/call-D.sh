#!/bin/bash
# Run 39 call D: 672cc58, the build to ship (PTX byte-identical to f19f00e's
# but for where versions 12-23 test y's alignment): the int4 linear, PTX,
# raw-launch and graph GPU tests, memcheck and synccheck of the
# misaligned-outputs test; the whole bf16 int4 report and PyTorch's linear
# peers in the same sitting, their comparison; then more sanitizers of the
# tiled tests with the time left.
cd .carry && rm -rf tests && tar xJf t.tar.xz && xz -dc quant-kernels.xz > quant-kernels && chmod +x quant-kernels && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-D.txt
for t in int4_linear ptx raw_launch graph; do
  REQUIRE_GPU=1 timeout 150 ./tests/$t > $L/tests-$t-D.log 2>&1; echo "$t exit $?" | tee -a $L/tests-D.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-D.log | tail -3 | tee -a $L/tests-D.log
done
sanitize() {
  LEFT=$(( 585 - ($(date +%s) - START) ))
  [ $LEFT -lt 20 ] && { echo "$1 $2 not run: out of time" | tee -a $L/tests-D.log; return; }
  REQUIRE_GPU=1 timeout $LEFT compute-sanitizer --tool $1 ./tests/int4_linear --exact $2 > $L/sanitizer-$1-${2#gpu::}-D.log 2>&1
  echo "$1 $2 exit $? (limit $LEFT s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test result' $L/sanitizer-$1-${2#gpu::}-D.log | tr '\n' ' ')" | tee -a $L/tests-D.log
}
sanitize memcheck gpu::tiled_gemms_misaligned_outputs
sanitize synccheck gpu::tiled_gemms_misaligned_outputs
date -u >> $L/device-D.txt
timeout 330 ./quant-kernels bench --kernel "int4_linear bf16" --json $L/report-D.json --png $L/report-D.png > $L/bench-D.log 2>&1; echo "bench exit $?"; tail -1 $L/bench-D.log
date -u >> $L/device-D.txt
timeout 140 python3 torch_peers.py --only linear --json $L/torch-D.json > $L/peers-D.log 2>&1; echo "peers exit $?"; tail -1 $L/peers-D.log
python3 compare.py $L/report-D.json $L/torch-D.json --markdown $L/compare-D.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare-D.md | cut -d'|' -f2-5,8,12,13
date -u >> $L/device-D.txt
gzip $L/bench-D.log
tar czf $OUT/logs-D.tar.gz -C $L .
sanitize racecheck gpu::tiled_gemms_misaligned_outputs
sanitize memcheck gpu::split_k_ragged
sanitize synccheck gpu::tiled_gemms_many_tile_groups
date -u >> $L/device-D.txt
tar czf $OUT/logs-D.tar.gz -C $L .
