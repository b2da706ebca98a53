#!/bin/bash
# Run 44 call C (H100): aca1e14 (run 43's kernels, the pick of version 12
# where version 13's whole clusters take a wave more): the whole bf16 int4
# report and PyTorch's linear peers in the same sitting, and their
# comparison (the README's int4 table), as run 43's call I; then the GPU
# tests of the int4 linear, int4 weights, raw-launch, graph and PTX binaries.
cd .carry && rm -rf tests && tar xJf t.tar.xz && xz -dc quant-kernels.xz > quant-kernels && chmod +x quant-kernels && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-C.txt
timeout 330 ./quant-kernels bench --kernel "int4_linear bf16" --json $L/report-C.json --png $L/report-C.png > $L/bench-C.log 2>&1; echo "bench exit $? at $(( $(date +%s) - START )) s"; tail -1 $L/bench-C.log
date -u >> $L/device-C.txt
tar czf $OUT/logs-C.tar.gz -C $L .
timeout 150 python3 torch_peers.py --only linear --json $L/torch-C.json > $L/peers-C.log 2>&1; echo "peers exit $? at $(( $(date +%s) - START )) s"; tail -1 $L/peers-C.log
python3 compare.py $L/report-C.json $L/torch-C.json --markdown $L/compare-C.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare-C.md | cut -d'|' -f2-5,8,12,13
date -u >> $L/device-C.txt
gzip $L/bench-C.log $L/report-C.json
tar czf $OUT/logs-C.tar.gz -C $L .
for t in int4_linear int4_weights raw_launch graph ptx; do
  [ $(( $(date +%s) - START )) -gt 540 ] && { echo "$t not run: time" | tee -a $L/tests-C.log; continue; }
  REQUIRE_GPU=1 timeout 60 ./tests/$t > $L/tests-$t-C.log 2>&1; echo "$t exit $? at $(( $(date +%s) - START )) s" | tee -a $L/tests-C.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-C.log | tail -3 | tee -a $L/tests-C.log
done
date -u >> $L/device-C.txt
tar czf $OUT/logs-C.tar.gz -C $L .
