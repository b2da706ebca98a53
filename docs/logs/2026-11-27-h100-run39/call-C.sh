#!/bin/bash
# Run 39 call C: 6170c65's whole bf16 int4 report (every version and shape,
# with the rest between cases) and PyTorch's linear peers in the same
# sitting, then their comparison: the README's int4 table and PERF's status
# rows were still run 37's, before 30e328d's whole-line epilogue.
cd .carry && xz -dc quant-kernels.xz > quant-kernels && chmod +x quant-kernels && L=/tmp/logs && mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-C.txt
timeout 400 ./quant-kernels bench --kernel "int4_linear bf16" --json $L/report-C.json --png $L/report-C.png > $L/bench-C.log 2>&1; echo "bench exit $?"; tail -1 $L/bench-C.log
date -u >> $L/device-C.txt
tar czf $OUT/logs-C.tar.gz -C $L .
timeout 160 python3 torch_peers.py --only linear --json $L/torch-C.json > $L/peers-C.log 2>&1; echo "peers exit $?"; tail -1 $L/peers-C.log
python3 compare.py $L/report-C.json $L/torch-C.json --markdown $L/compare-C.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare-C.md | cut -d'|' -f2-5,8,12,13
date -u >> $L/device-C.txt
gzip $L/bench-C.log
tar czf $OUT/logs-C.tar.gz -C $L .
