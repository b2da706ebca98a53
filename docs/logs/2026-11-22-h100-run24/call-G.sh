#!/bin/bash
# Run 24 call G: the final build's GPU tests (the binaries that touch the
# int4 kernels; version 19 with its register split), compute-sanitizer
# memcheck and synccheck of the whole int4 linear binary, racecheck of its
# tiled-GEMM test (every tiled version, 19 included), then Nsight
# Compute's stall reasons of version 19 at 64 x 28672 x 8192, as call D.
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-G.txt
for t in int4_linear int4_weights ptx raw_launch graph; do echo "=== tests/$t" >> $L/tests-G.log; timeout 120 tests/$t >> $L/tests-G.log 2>&1; echo "$t exit $?"; done
grep -hE "^===|test result|FAILED|panicked" $L/tests-G.log
for tool in memcheck synccheck; do
  timeout 110 compute-sanitizer --tool $tool --error-exitcode 99 tests/int4_linear --test-threads=1 > $L/sanitizer-$tool-G.log 2>&1; echo "$tool exit $?"
  grep -E "ERROR SUMMARY|test result" $L/sanitizer-$tool-G.log
done
timeout 200 compute-sanitizer --tool racecheck --error-exitcode 99 tests/int4_linear gemm_tiles --test-threads=1 > $L/sanitizer-racecheck-G.log 2>&1; echo "racecheck exit $?"
grep -E "RACECHECK SUMMARY|test result" $L/sanitizer-racecheck-G.log
N=/usr/local/cuda/bin/ncu
M="--clock-control none --section SpeedOfLight --section WarpStateStats --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum"
for c in "int4_linear_v19_bf16 64x28672x8192" "int4_linear_v19_split_k_bf16 64x8192x28672"; do
  timeout 60 $N $M -k regex:${c%% *} -c 1 ./quant-kernels bench --kernel "$c" --iters 1 2>&1 | grep -v "^\["
done > $L/ncu-G.log 2>&1
grep -E "^  [a-z_]+.*\(|Duration|Warp Cycles Per Issued|long_scoreboard|stalled_wait|dispatch" $L/ncu-G.log | head -30
