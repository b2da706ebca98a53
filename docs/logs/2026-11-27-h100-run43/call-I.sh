#!/bin/bash
# Run 43 call I (H100): cea4808, the build to ship (run 43's half-block
# one-warp groups and prefetch before the grid wait): the whole bf16 int4
# report and PyTorch's linear peers in the same sitting, and their
# comparison (the README's int4 table), as run 41's call D.
cd .carry && xz -dc quant-kernels.xz > quant-kernels && chmod +x quant-kernels && L=/tmp/logs && mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-I.txt
timeout 330 ./quant-kernels bench --kernel "int4_linear bf16" --json $L/report-I.json --png $L/report-I.png > $L/bench-I.log 2>&1; echo "bench exit $?"; tail -1 $L/bench-I.log
date -u >> $L/device-I.txt
tar czf $OUT/logs-I.tar.gz -C $L .
timeout 180 python3 torch_peers.py --only linear --json $L/torch-I.json > $L/peers-I.log 2>&1; echo "peers exit $?"; tail -1 $L/peers-I.log
python3 compare.py $L/report-I.json $L/torch-I.json --markdown $L/compare-I.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare-I.md | cut -d'|' -f2-5,8,12,13
date -u >> $L/device-I.txt
gzip $L/bench-I.log $L/report-I.json
tar czf $OUT/logs-I.tar.gz -C $L .
