#!/bin/bash
# Run 21 call H: probe for the next decode version: version 5 without its activation-sum MMAs (wrong results, the same loads), beside the shipped build.
cd .carry && L=$OUT
for b in head probe; do xz -dk p/qk-$b.xz; ./p/qk-$b bench --kernel "int4_linear_v5_m8_g128_bf16 1x sym" --json /tmp/$b.json --png /tmp/$b.png > $L/probe-$b-H.log 2>&1; done
grep -h "graph cold" $L/probe-*-H.log | grep -v asym
