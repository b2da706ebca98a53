#!/bin/bash
# Run 29 call A: version 24 (version 17's M <= 8 block with a cp.async ring
# of codes a warp). The int4 linear and PTX GPU tests; the report's int4
# cases at M = 1 in bf16 (every version, both modes); PyTorch's linear peers
# in the same sitting, and their comparison.
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-A.txt
for t in int4_linear ptx; do echo "=== tests/$t" >> $L/tests-A.log; timeout 200 tests/$t >> $L/tests-A.log 2>&1; echo "$t exit $?"; done
grep -hE "^===|test result|FAILED|panicked" $L/tests-A.log | head -20
unset REQUIRE_GPU
timeout 200 ./quant-kernels bench --kernel "int4_linear 1x bf16" --json $L/report-A.json --png $L/report-A.png > $L/bench-A.log 2>&1; echo "bench exit $?"; tail -2 $L/bench-A.log
timeout 110 python3 torch_peers.py --only linear --json $L/torch-A.json > $L/peers-A.log 2>&1; echo "peers exit $?"; tail -1 $L/peers-A.log
python3 compare.py $L/report-A.json $L/torch-A.json --markdown $L/compare-A.md > /dev/null 2>&1; grep -E "^\| [0-9]+ \| [0-9]+ \| 1 " $L/compare-A.md | cut -d'|' -f2-6,8,10,13,14,15
grep -E "graph cold" $L/bench-A.log | grep -E " sym " | sed 's/^\[ *[0-9.]* s\] //' | grep -E "v17|v24|Memcpy" | cut -c1-110
