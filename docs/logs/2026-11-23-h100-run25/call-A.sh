#!/bin/bash
# Run 25 call A: version 21 (version 19 with K split across a cluster).
# The clusters the H100 runs at once; the int4 linear and raw-launch GPU
# tests; versions 19 (split through the workspace) and 21 at M = 32, 64
# and 128 on the five shapes, and version 13 at 128. tests/zz_tmp_slots was
# a throwaway binary (in no commit) that printed `Kernels::new()?.device()`,
# whose cluster_slots came from cuOccupancyMaxActiveClusters (commit 405f778).
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; tests/zz_tmp_slots; } | tee $L/device-A.txt
for t in int4_linear raw_launch; do echo "=== tests/$t" >> $L/tests-A.log; timeout 150 tests/$t >> $L/tests-A.log 2>&1; echo "$t exit $?"; done
grep -hE "^===|test result|FAILED|panicked|Error" $L/tests-A.log | head -20
for m in 64 32 128; do
  for v in v19 v21; do
    timeout 100 ./quant-kernels bench --kernel "$v ${m}x" --json /tmp/r$v$m.json --png /tmp/r.png >> $L/bench-A.log 2>&1; echo "bench $v $m exit $?"
  done
done
timeout 60 ./quant-kernels bench --kernel "v13 128x" --json /tmp/r13.json --png /tmp/r.png >> $L/bench-A.log 2>&1; echo "bench v13 exit $?"
grep -E "^int4_linear_v(19|21|13)" $L/bench-A.log | grep bf16 | cut -c1-150
