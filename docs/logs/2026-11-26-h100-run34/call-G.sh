#!/bin/bash
# Run 34 call G (53a338c: call D's build with constant windows for versions 13, 22 and 23 only):
# the whole int4 report in bf16 (every version, M = 1 to 8192, the five
# shapes) and PyTorch's linear peers in the same sitting, and their
# comparison, as run 31 call C.
cd .carry && ( [ -f quant-kernels ] || xz -dk quant-kernels.xz ) && chmod +x quant-kernels && L=/tmp/logs && mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-G.txt
timeout 380 ./quant-kernels bench --kernel "int4_linear bf16" --json $L/report-G.json --png $L/report-G.png > $L/bench-G.log 2>&1; echo "bench exit $?"; tail -1 $L/bench-G.log
grep -A4 "^Launch overhead" $L/bench-G.log | cut -c1-250
timeout 150 python3 torch_peers.py --only linear --json $L/torch-G.json > $L/peers-G.log 2>&1; echo "peers exit $?"; tail -1 $L/peers-G.log
python3 compare.py $L/report-G.json $L/torch-G.json --markdown $L/compare-G.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare-G.md | cut -d'|' -f2-5,8,12,13
date -u >> $L/device-G.txt
tar czf $OUT/logs-G.tar.gz -C $L .
