#!/bin/bash
# Run 41 call D (on an H100; call C ran on an H200): 9a4c655, the build
# to ship: the whole bf16 int4 report and PyTorch's linear peers in the
# same sitting, and their comparison (the README's int4 table).
cd .carry && xz -dc quant-kernels.xz > quant-kernels && chmod +x quant-kernels && L=/tmp/logs && mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-D.txt
timeout 330 ./quant-kernels bench --kernel "int4_linear bf16" --json $L/report-D.json --png $L/report-D.png > $L/bench-D.log 2>&1; echo "bench exit $?"; tail -1 $L/bench-D.log
date -u >> $L/device-D.txt
timeout 150 python3 torch_peers.py --only linear --json $L/torch-D.json > $L/peers-D.log 2>&1; echo "peers exit $?"; tail -1 $L/peers-D.log
python3 compare.py $L/report-D.json $L/torch-D.json --markdown $L/compare-D.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare-D.md | cut -d'|' -f2-5,8,12,13
date -u >> $L/device-D.txt
gzip $L/bench-D.log $L/report-D.json
tar czf $OUT/logs-D.tar.gz -C $L .
