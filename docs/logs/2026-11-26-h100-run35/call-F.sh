#!/bin/bash
# Run 35 call F (39dda99: split calls with the report's own workspace):
# the whole int4 report in bf16 (every version, M = 1 to 8192, the five
# shapes) and PyTorch's linear peers in the same sitting, and their
# comparison, as run 34 call G.
cd .carry && xz -dc quant-kernels.xz > quant-kernels && chmod +x quant-kernels && L=/tmp/logs && mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-F.txt
timeout 380 ./quant-kernels bench --kernel "int4_linear bf16" --json $L/report-F.json --png $L/report-F.png > $L/bench-F.log 2>&1; echo "bench exit $?"; tail -1 $L/bench-F.log
grep -A4 "^Launch overhead" $L/bench-F.log | cut -c1-250
timeout 150 python3 torch_peers.py --only linear --json $L/torch-F.json > $L/peers-F.log 2>&1; echo "peers exit $?"; tail -1 $L/peers-F.log
python3 compare.py $L/report-F.json $L/torch-F.json --markdown $L/compare-F.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare-F.md | cut -d'|' -f2-5,8,12,13
date -u >> $L/device-F.txt
tar czf $OUT/logs-F.tar.gz -C $L .
