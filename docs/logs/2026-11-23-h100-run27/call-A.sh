#!/bin/bash
# Run 27 call A: version 22 (version 19's pipeline on a 16-row tile,
# m64n16k16, 8 stages). Its GPU tests first (every int4 linear test runs
# it, unsplit and split), then every version at M = 1 and 16 (bf16,
# symmetric) on the five shapes, versions 19 and 22 at M = 32, and `ncu`
# of version 22 and 17 at 16 x 28672 x 8192.
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-A.txt
for t in int4_linear ptx raw_launch; do echo "=== tests/$t" >> $L/tests-A.log; timeout 150 tests/$t >> $L/tests-A.log 2>&1; echo "$t exit $?"; done
grep -hE "^===|test result|FAILED|panicked" $L/tests-A.log | head -20
for f in "bf16 16x sym" "bf16 1x sym" "v22 32x sym bf16" "v19 32x sym bf16"; do
  echo "=== $f" >> $L/bench-A.log
  timeout 150 ./quant-kernels bench --kernel "$f" --json /tmp/r.json --png /tmp/r.png >> $L/bench-A.log 2>&1; echo "$f exit $?"
done
grep -E "^===|graph cold" $L/bench-A.log | grep -v memcpy | sed 's/^\[ *[0-9.]* s\] //' | grep -E "^===|v17|v19|v22" | cut -c1-110
N=/usr/local/cuda/bin/ncu
M="--clock-control none --section SpeedOfLight --section WarpStateStats --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,dram__bytes_read.sum"
for k in "int4_linear_v22_bf16 v22 b512 16x28672x8192 sym" "int4_linear_v17_m16_w1_g128_bf16 v17 16x28672x8192 sym"; do
  echo "##### $k"
  timeout 60 $N $M -k regex:^${k%% *}\$ -c 1 ./quant-kernels bench --kernel "$k" --iters 1 2>&1 | grep -v "^\["
done > $L/ncu-A.log 2>&1
grep -E "^#####|Duration|Throughput|Busy|inst_executed|dram__bytes" $L/ncu-A.log
