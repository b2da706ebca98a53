#!/bin/bash
# Run 24 call B: the whole int4 report of this build (version 17 up to 16
# rows, then version 19 unsplit or 18 split up to 64, M = 32 added) and
# PyTorch's linear peers in the same sitting, then their comparison.
cd .carry && tar xJf t.tar.xz && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-B.txt
timeout 490 ./quant-kernels bench --kernel int4_linear --json $L/report.json --png $L/report.png > $L/bench.log 2>&1; echo "bench exit $?"; tail -2 $L/bench.log
timeout 95 python3 torch_peers.py --only linear --json $L/torch.json > $L/peers.log 2>&1; echo "peers exit $?"; tail -1 $L/peers.log
python3 compare.py $L/report.json $L/torch.json --markdown $L/compare.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare.md | cut -d'|' -f2-6,8,10,13,14,15
