#!/bin/bash
# Run 23 call H: M = 64 with version 18 chosen (every version timed), and
# PyTorch's linear peers, in one sitting; then their comparison.
cd .carry && xz -d quant-kernels.xz && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-H.txt
timeout 200 ./quant-kernels bench --kernel "int4_linear 64x" --json $L/report-H.json --png $L/report-H.png > $L/bench-H.log 2>&1; echo "bench exit $?"; tail -1 $L/bench-H.log
timeout 150 python3 torch_peers.py --only linear --json $L/torch-H.json > $L/peers-H.log 2>&1; echo "peers exit $?"; tail -1 $L/peers-H.log
python3 compare.py $L/report-H.json $L/torch-H.json --markdown $L/compare-H.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare-H.md | grep -E "\| 64 \|" | cut -d'|' -f2-8,12-14
