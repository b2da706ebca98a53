#!/bin/bash
# Run 22 call H: the whole int4 report of the committed build (version 17
# chosen at M <= 8 on the two largest layers) and PyTorch's linear peers in
# the same sitting, then their comparison.
cd .carry && tar xJf bins.tar.xz && L=$OUT
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 400 ./quant-kernels bench --kernel int4_linear --json $L/report.json --png $L/report.png > $L/bench.log 2>&1; echo "bench exit $?"; tail -2 $L/bench.log
timeout 150 python3 torch_peers.py --only linear --json $L/torch.json > $L/peers.log 2>&1; echo "peers exit $?"; tail -2 $L/peers.log
python3 compare.py $L/report.json $L/torch.json --markdown $L/compare.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare.md | grep -E "\| (1|16|128) \|" | head -40
