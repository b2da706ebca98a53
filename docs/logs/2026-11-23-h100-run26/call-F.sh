#!/bin/bash
# Run 26 call F: the whole int4 report of the final build (85e6368: no
# prefetch of the constants in the producer-consumer GEMMs, the reduction
# with 16-byte loads) and PyTorch's linear peers in the same sitting, then
# their comparison.
cd .carry && tar xJf t.tar.xz && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-F.txt
timeout 490 ./quant-kernels bench --kernel int4_linear --json $L/report-F.json --png $L/report-F.png > $L/bench-F.log 2>&1; echo "bench exit $?"; tail -2 $L/bench-F.log
timeout 95 python3 torch_peers.py --only linear --json $L/torch-F.json > $L/peers-F.log 2>&1; echo "peers exit $?"; tail -1 $L/peers-F.log
python3 compare.py $L/report-F.json $L/torch-F.json --markdown $L/compare-F.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare-F.md | cut -d'|' -f2-6,8,10,13,14,15
