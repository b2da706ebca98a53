#!/bin/bash
# Run 33 call H: block-size sweeps of the elementwise kernels where issue
# 3's targets are missed: quantize_int8 from f16/bf16 at 20M (94% of the
# copy) and add_mul_exp f32 at 50M (0.99x torch.compile).
cd .carry && ( [ -f qk ] || xz -dk qk.xz ) && chmod +x qk && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-H.txt
timeout 200 ./qk bench --kernel "quantize_int8 20M" --sweep --json $L/sweep-quantize-20M-H.json --png /tmp/p.png > $L/sweep-quantize-20M-H.log 2>&1
timeout 200 ./qk bench --kernel "add_mul_exp _f32 50M" --sweep --json $L/sweep-add_mul_exp-50M-H.json --png /tmp/p.png > $L/sweep-add_mul_exp-50M-H.log 2>&1
date -u >> $L/device-H.txt
