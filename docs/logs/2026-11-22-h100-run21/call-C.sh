#!/bin/bash
# Run 21 call C: version 15 with 6, 8 and 12 stages a warp (constants a step ahead), v5 beside.
cd .carry && L=$OUT
for st in 6 8 12; do xz -dk b/qk$st.xz; ./b/qk$st bench --kernel "int4_linear_v15_g128 1x sym" --sweep --json /tmp/b.json --png /tmp/b.png > $L/bench-v15-s$st-C.log 2>&1; done
./b/qk8 bench --kernel "int4_linear_v5_m8_g128 1x sym" --json /tmp/b5.json --png /tmp/b5.png > $L/bench-v5-C.log 2>&1
./b/qk8 bench --kernel "int4_linear_v15_g128 1x asym" --json /tmp/b5.json --png /tmp/b5.png > $L/bench-v15-asym-C.log 2>&1
grep -h "graph cold" $L/*.log | grep -c ok
