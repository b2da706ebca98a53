#!/bin/bash
# Run 26 call B: more of version 19's step and split. Builds of the main job:
# base (8bdea25), p4 (the producers copy no activations:
# probe-no-activation-copies-B.patch), p5 (call A's p1 and p2 together: no
# constants loaded, no dequantization), p6 (the split-K GEMM stores no
# partial sums: probe-no-partial-stores-B.patch). p4 to p6 give wrong
# results (their checks fail). Then Nsight Compute durations of version 19
# split 8 at 64x4096x4096 and its reduction, the L2 not flushed.
cd .carry && tar xJf p.tar.xz && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-B.txt
for b in base p4 p5 p6 base; do
  echo "=== $b v19 64x" >> $L/bench-B.log
  timeout 90 ./qk-$b bench --kernel "v19 64x bf16" --json /tmp/r.json --png /tmp/r.png >> $L/bench-B.log 2>&1; echo "$b v19 exit $?"
done
N=/usr/local/cuda/bin/ncu
for cc in all none; do
  for k in int4_linear_v19_split_k_bf16 int4_linear_split_k_reduce_bf16; do
    echo "##### $k cache-control $cc"
    timeout 60 $N --clock-control none --cache-control $cc --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum -k regex:^$k\$ -c 1 ./qk-base bench --kernel "v19 split 64x4096x4096 bf16" --iters 1 2>&1 | grep -v "^\["
  done
done > $L/ncu-B.log 2>&1
grep -E "^#####|duration|bytes" $L/ncu-B.log
grep -E "^===|^int4_linear_v19" $L/bench-B.log | cut -c1-110 | grep -v "     fits\|  -  "
