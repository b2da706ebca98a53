#!/bin/bash
# Run 32 call F: ncu of version 23 (qk-base, 5625d2f) and version 25 (qk-v25,
# version-25-three-loops.patch) at 16 x 28672 x 8192, and of the library's
# decode GEMV (version 17) at 1 x 28672 x 8192: where the tiled kernels'
# bytes a second stop. One launch each, bf16 sym, clocks not locked.
cd .carry && ( [ -f qk-base ] || tar xJf q.tar.xz ) && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-F.txt
run() { # binary, kernel, shape, file
  timeout 150 ncu --clock-control none -k "$2" -c 1 --set full ./$1 bench --kernel "$2 $3 sym" --iters 1 > $L/ncu-F-$4.txt 2>&1
  echo "$4 exit $?" >> $L/device-F.txt
}
run qk-base int4_linear_v23_bf16 16x28672x8192 v23
run qk-v25 int4_linear_v25_bf16 16x28672x8192 v25
run qk-base int4_linear_v17_m8_w1_g128_bf16 1x28672x8192 v17
date -u >> $L/device-F.txt
