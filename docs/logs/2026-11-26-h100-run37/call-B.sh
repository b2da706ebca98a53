#!/bin/bash
# Run 37 call B: the library as in run 36 (d737304's kernels), with the
# report and the PyTorch peers resting before each figure as long as the
# previous one kept the GPU busy (up to 0.25 s). The whole int4 report in
# bf16 and PyTorch's linear peers in the same sitting, their comparison, and
# the SM clock and power every 100 ms beside them (call A found a case run
# after the report's long ones under the power cap, 1485-1770 MHz).
cd .carry && xz -dc quant-kernels.xz > quant-kernels && chmod +x quant-kernels && L=/tmp/logs && mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-B.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv -lms 100 > $L/smi-B.csv 2>&1 &
SMI=$!
timeout 400 ./quant-kernels bench --kernel "int4_linear bf16" --json $L/report-B.json --png $L/report-B.png > $L/bench-B.log 2>&1; echo "bench exit $?"; tail -1 $L/bench-B.log
grep -A4 "^Launch overhead" $L/bench-B.log | cut -c1-250
date -u >> $L/device-B.txt
tar czf $OUT/logs-B.tar.gz -C $L .
timeout 160 python3 torch_peers.py --only linear --json $L/torch-B.json > $L/peers-B.log 2>&1; echo "peers exit $?"; tail -1 $L/peers-B.log
kill $SMI
python3 compare.py $L/report-B.json $L/torch-B.json --markdown $L/compare-B.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare-B.md | cut -d'|' -f2-5,8,12,13
date -u >> $L/device-B.txt
tar czf $OUT/logs-B.tar.gz -C $L .
