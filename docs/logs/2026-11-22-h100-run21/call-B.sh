#!/bin/bash
# Run 21 call B: version 15 with its loop unrolled by STAGES (constants in fixed registers).
cd .carry && xz -dk b/quant-kernels.xz && L=$OUT
./b/quant-kernels bench --kernel "int4_linear_v15_g128 1x" --sweep --json /tmp/b15.json --png /tmp/b15.png > $L/bench-v15-B.log 2>&1
./b/quant-kernels bench --kernel "int4_linear_v5_m8_g128 1x" --json /tmp/b5.json --png /tmp/b5.png > $L/bench-v5-B.log 2>&1
grep "graph cold" $L/bench-v15-B.log | grep -c ok
