#!/bin/bash
# Run 34 call A (probe build: 9865a75 + probe-A.patch, wrong results where
# the reduction is skipped): what the split-K reduction and the workspace's
# allocation nodes cost. QK_PROBE unset: the library's path; no-reduce: the
# split GEMM alone, pool workspace; static-no-reduce: the split GEMM alone
# on a workspace allocated once (no allocation and free nodes).
cd .carry && ( [ -f qk ] || xz -dc qk-probe.xz > qk ) && chmod +x qk && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-A.txt
for shape in "16x11008x4096 _bf16 v23" "16x4096x11008 _bf16 v23" "64x4096x11008 _bf16 v19" "128x11008x4096 _bf16 v13" "128x4096x4096 _bf16 v19"; do
  for probe in "" no-reduce static-no-reduce; do
    echo "### $shape probe=$probe" >> $L/probe-A.log
    QK_PROBE=$probe timeout 100 ./qk bench --kernel "int4_linear $shape split" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/probe-A.log
  done
done
for v in v17 v23; do
  echo "### 16x8192x28672 $v" >> $L/probe-A.log
  timeout 100 ./qk bench --kernel "int4_linear 16x8192x28672 _bf16 $v" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/probe-A.log
done
date -u >> $L/device-A.txt
