#!/bin/bash
# Run 36 call B, the final build (the tile order for versions 12, 13, 19,
# 22 and 23; version 13's constant windows on short rows): the int4 linear,
# graph and raw-launch GPU tests, memcheck of the new many-groups test, then
# the whole int4 report in bf16 and PyTorch's linear peers in the same
# sitting, and their comparison (as run 35 call F).
cd .carry && rm -rf tests && tar xJf t.tar.xz && xz -dc qk-new.xz > quant-kernels && chmod +x quant-kernels && L=/tmp/logs && mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-B.txt
for t in int4_linear raw_launch graph; do
  REQUIRE_GPU=1 timeout 120 ./tests/$t > $L/tests-$t-B.log 2>&1; echo "$t exit $?" | tee -a $L/tests-B.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-B.log | tail -3 | tee -a $L/tests-B.log
done
REQUIRE_GPU=1 timeout 110 compute-sanitizer --tool memcheck ./tests/int4_linear gpu::tiled_gemms_many_tile_groups > $L/sanitizer-memcheck-B.log 2>&1
echo "memcheck exit $?: $(grep -E 'ERROR SUMMARY|test result' $L/sanitizer-memcheck-B.log | tr '\n' ' ')" | tee -a $L/tests-B.log
date -u >> $L/device-B.txt
timeout 330 ./quant-kernels bench --kernel "int4_linear bf16" --json $L/report-B.json --png $L/report-B.png > $L/bench-B.log 2>&1; echo "bench exit $?"; tail -1 $L/bench-B.log
grep -A4 "^Launch overhead" $L/bench-B.log | cut -c1-250
tar czf $OUT/logs-B.tar.gz -C $L .
timeout 120 python3 torch_peers.py --only linear --json $L/torch-B.json > $L/peers-B.log 2>&1; echo "peers exit $?"; tail -1 $L/peers-B.log
python3 compare.py $L/report-B.json $L/torch-B.json --markdown $L/compare-B.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare-B.md | cut -d'|' -f2-5,8,12,13
date -u >> $L/device-B.txt
tar czf $OUT/logs-B.tar.gz -C $L .
