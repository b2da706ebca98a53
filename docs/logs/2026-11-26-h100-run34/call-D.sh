#!/bin/bash
# Run 34 call D (e2158c3: V23_MAX_K = 28672, no kernel change since run 33):
# the whole int4 report in bf16 (every version, M = 1 to 8192, the five
# shapes) and PyTorch's linear peers in the same sitting, and their
# comparison, as run 31 call C.
cd .carry && ( [ -f quant-kernels ] || xz -dk quant-kernels.xz ) && chmod +x quant-kernels && L=/tmp/logs && mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-D.txt
timeout 380 ./quant-kernels bench --kernel "int4_linear bf16" --json $L/report-D.json --png $L/report-D.png > $L/bench-D.log 2>&1; echo "bench exit $?"; tail -1 $L/bench-D.log
grep -A4 "^Launch overhead" $L/bench-D.log | cut -c1-250
timeout 150 python3 torch_peers.py --only linear --json $L/torch-D.json > $L/peers-D.log 2>&1; echo "peers exit $?"; tail -1 $L/peers-D.log
python3 compare.py $L/report-D.json $L/torch-D.json --markdown $L/compare-D.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare-D.md | cut -d'|' -f2-5,8,12,13
date -u >> $L/device-D.txt
tar czf $OUT/logs-D.tar.gz -C $L .
