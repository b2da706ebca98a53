#!/bin/bash
# Run 37 call C: call B again on another machine (the same binary and
# scripts), to see which of call B's figures the sitting moves.
cd .carry && xz -dc quant-kernels.xz > quant-kernels && chmod +x quant-kernels && L=/tmp/logs && mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit,power.default_limit,power.max_limit,clocks.max.sm --format=csv; } | tee $L/device-C.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv -lms 100 > $L/smi-C.csv 2>&1 &
SMI=$!
timeout 400 ./quant-kernels bench --kernel "int4_linear bf16" --json $L/report-C.json --png $L/report-C.png > $L/bench-C.log 2>&1; echo "bench exit $?"; tail -1 $L/bench-C.log
grep -A4 "^Launch overhead" $L/bench-C.log | cut -c1-250
date -u >> $L/device-C.txt
tar czf $OUT/logs-C.tar.gz -C $L .
timeout 160 python3 torch_peers.py --only linear --json $L/torch-C.json > $L/peers-C.log 2>&1; echo "peers exit $?"; tail -1 $L/peers-C.log
kill $SMI
python3 compare.py $L/report-C.json $L/torch-C.json --markdown $L/compare-C.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare-C.md | cut -d'|' -f2-5,8,12,13
date -u >> $L/device-C.txt
tar czf $OUT/logs-C.tar.gz -C $L .
