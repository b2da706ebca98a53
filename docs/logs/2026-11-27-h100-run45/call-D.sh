#!/bin/bash
# Run 45 call D (H100): e7c8e72 (the producer-consumer GEMMs ask the L2 for
# their first step's codes and their rows' constants before the grid
# wait): the whole bf16 int4 report and PyTorch's linear peers in the
# same sitting, and their comparison (the README's int4 table), as run
# 44's call C; then the GPU tests of the int4 linear, int4 weights,
# raw-launch, graph and PTX binaries.
cd .carry && rm -rf tests && tar xJf t.tar.xz && xz -dc qk.xz > quant-kernels && chmod +x quant-kernels && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-D.txt
timeout 330 ./quant-kernels bench --kernel "int4_linear bf16" --json $L/report-D.json --png $L/report-D.png > $L/bench-D.log 2>&1; echo "bench exit $? at $(( $(date +%s) - START )) s"; tail -1 $L/bench-D.log
date -u >> $L/device-D.txt
tar czf $OUT/logs-D.tar.gz -C $L .
timeout 150 python3 torch_peers.py --only linear --json $L/torch-D.json > $L/peers-D.log 2>&1; echo "peers exit $? at $(( $(date +%s) - START )) s"; tail -1 $L/peers-D.log
python3 compare.py $L/report-D.json $L/torch-D.json --markdown $L/compare-D.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare-D.md | cut -d'|' -f2-5,8,12,13
date -u >> $L/device-D.txt
gzip $L/bench-D.log $L/report-D.json
tar czf $OUT/logs-D.tar.gz -C $L .
for t in int4_linear int4_weights raw_launch graph ptx; do
  [ $(( $(date +%s) - START )) -gt 540 ] && { echo "$t not run: time" | tee -a $L/tests-D.log; continue; }
  REQUIRE_GPU=1 timeout 100 ./tests/$t > $L/tests-$t-D.log 2>&1; echo "$t exit $? at $(( $(date +%s) - START )) s" | tee -a $L/tests-D.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-D.log | tail -3 | tee -a $L/tests-D.log
done
date -u >> $L/device-D.txt
tar czf $OUT/logs-D.tar.gz -C $L .
