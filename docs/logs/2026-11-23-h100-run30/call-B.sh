#!/bin/bash
# Run 30 call B: programmatic dependent launch for the decode GEMV
# (versions 5, 6, 17). Every int4 linear, PTX and graph GPU test (with the
# new chain test); compute-sanitizer of the chain test and of version 17's
# block test; version 17 at M = 1 in bf16 with programmatic launches and
# with --serialized, then PyTorch's linear peers, in the same sitting.
# Logs come back as one archive (at most 8 files come back).
cd .carry && tar xJf t.tar.xz && L=/tmp/logs && mkdir -p $L && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-B.txt
for t in int4_linear ptx graph; do echo "=== tests/$t" >> $L/tests-B.log; timeout 150 tests/$t >> $L/tests-B.log 2>&1; echo "$t exit $?"; done
grep -hE "^===|test result|FAILED|panicked|programmatic" $L/tests-B.log | head -20
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 99 tests/int4_linear "gpu::programmatic_launches_chain_layers" --test-threads=1 > $L/sanitizer-$tool-B.log 2>&1; echo "$tool chain exit $?"
done
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 99 tests/int4_linear gpu::v17_every_block_shape --test-threads=1 > $L/sanitizer-memcheck-blocks-B.log 2>&1; echo "memcheck blocks exit $?"
grep -hE "ERROR SUMMARY|RACECHECK SUMMARY|test result" $L/sanitizer-*-B.log
unset REQUIRE_GPU
for mode in programmatic serialized; do
  flag=$([ $mode = serialized ] && echo --serialized)
  timeout 170 ./quant-kernels bench --kernel "int4_linear 1x bf16 v17" $flag --json $L/report-B-$mode.json --png /tmp/p.png > $L/bench-B-$mode.log 2>&1; echo "bench $mode exit $?"
  grep -E "graph cold" $L/bench-B-$mode.log | grep -E "Memcpy|groups" | sed 's/^\[ *[0-9.]* s\] //' | cut -c1-100
  grep -A3 "^Launch overhead" $L/bench-B-$mode.log
done
timeout 110 python3 torch_peers.py --only linear --json $L/torch-B.json > $L/peers-B.log 2>&1; echo "peers exit $?"; tail -1 $L/peers-B.log
for mode in programmatic serialized; do
  python3 compare.py $L/report-B-$mode.json $L/torch-B.json --markdown $L/compare-B-$mode.md > /dev/null 2>&1
  echo "## $mode"; grep -E "^\| [0-9]+ \| [0-9]+ \| 1 " $L/compare-B-$mode.md | cut -d'|' -f2-6,8,10,13,14,15
done
tar czf $OUT/logs-B.tar.gz -C $L .
