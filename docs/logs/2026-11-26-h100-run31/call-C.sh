#!/bin/bash
# Run 31 call C (call A's build, b1ff571, programmatic dependent launch on):
# the whole int4 report in bf16 (every version, M = 1 to 8192, the five
# shapes) and PyTorch's linear peers in the same sitting, and their
# comparison (the README's table).
cd .carry && ( [ -d tests ] || tar xJf t.tar.xz ) && L=/tmp/logs && mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-C.txt
timeout 360 ./quant-kernels bench --kernel "int4_linear bf16" --json $L/report-C.json --png $L/report-C.png > $L/bench-C.log 2>&1; echo "bench exit $?"; tail -1 $L/bench-C.log
grep -A4 "^Launch overhead" $L/bench-C.log | cut -c1-250
timeout 110 python3 torch_peers.py --only linear --json $L/torch-C.json > $L/peers-C.log 2>&1; echo "peers exit $?"; tail -1 $L/peers-C.log
python3 compare.py $L/report-C.json $L/torch-C.json --markdown $L/compare-C.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare-C.md | cut -d'|' -f2-5,8,12,13
tar czf $OUT/logs-C.tar.gz -C $L .
