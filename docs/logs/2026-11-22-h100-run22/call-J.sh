#!/bin/bash
# Run 22 call J: the final build (row groups placed by LanePosition and
# Epilogue::store): GPU tests, compute-sanitizer on the block tests of
# versions 3-6 and 17, then the whole int4 report and PyTorch's linear
# peers in the same sitting, and their comparison.
cd .carry && tar xJf bins.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-J.txt
for t in int4_linear ptx raw_launch; do timeout 100 tests/$t > $L/tests-$t-J.log 2>&1; echo "$t exit $?"; done
grep -hE "test result|FAILED|panicked" $L/tests-*-J.log
for tool in memcheck racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 99 tests/int4_linear every_block --test-threads=1 > $L/sanitizer-$tool-J.log 2>&1; echo "$tool exit $?"
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|test result" $L/sanitizer-$tool-J.log
done
timeout 400 ./quant-kernels bench --kernel int4_linear --json $L/report.json --png $L/report.png > $L/bench-J.log 2>&1; echo "bench exit $?"; tail -1 $L/bench-J.log
timeout 80 python3 torch_peers.py --only linear --json $L/torch.json > $L/peers-J.log 2>&1; echo "peers exit $?"; tail -1 $L/peers-J.log
python3 compare.py $L/report.json $L/torch.json --markdown $L/compare-J.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare-J.md | grep -E "\| (1|16|128) \|" | cut -d'|' -f2-6,8,13,14
