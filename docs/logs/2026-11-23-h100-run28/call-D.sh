#!/bin/bash
# Run 28 call D: the final build (version 23 the pick from 9 to 16 rows
# where k <= 16384, version 22 past it). Its int4 linear, raw-launch, graph,
# PTX and int4 weight GPU tests; then the report's int4 cases at M = 16 in
# bf16 (every version and mode) and PyTorch's linear peers in the same
# sitting, and their comparison.
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-D.txt
for t in int4_linear raw_launch graph ptx int4_weights; do echo "=== tests/$t" >> $L/tests-D.log; timeout 150 tests/$t >> $L/tests-D.log 2>&1; echo "$t exit $?"; done
grep -hE "^===|test result|FAILED|panicked" $L/tests-D.log | head -20
unset REQUIRE_GPU
timeout 250 ./quant-kernels bench --kernel "int4_linear 16x bf16" --json $L/report-D.json --png $L/report-D.png > $L/bench-D.log 2>&1; echo "bench exit $?"; tail -2 $L/bench-D.log
timeout 110 python3 torch_peers.py --only linear --json $L/torch-D.json > $L/peers-D.log 2>&1; echo "peers exit $?"; tail -1 $L/peers-D.log
python3 compare.py $L/report-D.json $L/torch-D.json --markdown $L/compare-D.md > /dev/null 2>&1; grep -E "^\| [0-9]+ \| [0-9]+ \| 16 " $L/compare-D.md | cut -d'|' -f2-6,8,10,13,14,15
grep -E "graph cold" $L/bench-D.log | grep -E " sym " | sed 's/^\[ *[0-9.]* s\] //' | grep -E "v1[7]|v2[23]" | cut -c1-110
