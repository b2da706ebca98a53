#!/bin/bash
# Run 27 call G: the final build (98bc8a9: call F's, versions 19 and 22 reading a
# step's constants once at G = 128; version 22 the pick
# from 9 to 16 rows where its slices hold 8 steps or more). Its int4 linear,
# raw-launch, graph and PTX GPU tests; then the report's int4 cases at
# M = 16 (every version, mode and type) and PyTorch's linear peers in the
# same sitting, and their comparison.
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-G.txt
for t in int4_linear raw_launch graph ptx; do echo "=== tests/$t" >> $L/tests-G.log; timeout 150 tests/$t >> $L/tests-G.log 2>&1; echo "$t exit $?"; done
grep -hE "^===|test result|FAILED|panicked" $L/tests-G.log | head -20
unset REQUIRE_GPU
timeout 300 ./quant-kernels bench --kernel "int4_linear 16x" --json $L/report-G.json --png $L/report-G.png > $L/bench-G.log 2>&1; echo "bench exit $?"; tail -2 $L/bench-G.log
timeout 110 python3 torch_peers.py --only linear --json $L/torch-G.json > $L/peers-G.log 2>&1; echo "peers exit $?"; tail -1 $L/peers-G.log
python3 compare.py $L/report-G.json $L/torch-G.json --markdown $L/compare-G.md > /dev/null 2>&1; grep -E "^\| [0-9]+ \| [0-9]+ \| 16 " $L/compare-G.md | cut -d'|' -f2-6,8,10,13,14,15
