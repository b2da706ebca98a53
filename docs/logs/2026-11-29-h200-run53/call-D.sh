#!/bin/bash
# Run 53 call D (H200): at M = 64 is version 19 held back by the L2's
# reads of its activations? Every block reads the step's 16 KB of
# activations from L2 besides its 16 KB of codes; at 64 x 28672 x 8192 its
# 112 blocks then take about 3.2 TB/s from L2, the rate the walk of call B
# could not pass. `mc64` (`multicast-64.patch`) gives version 13 (clusters
# of two blocks that share each stage's activations, one TMA multicast
# copy of half of them from each block) version 19's 64-row tile, 5
# stages and accumulators, so that its blocks read half the activations
# from L2; version 13's constant windows stay. Against HEAD 7452670
# (`base`), two rounds, bf16, symmetric, G = 128: mc64's version 13 and
# base's version 19 at M = 64 (each with its split), and both builds'
# version 13 at M = 128. Then mc64's int4 linear GPU tests (its plan test
# expects 128-row tiles for version 13 and fails by design).
# Predicted: if the activations' L2 reads bind, mc64's version 13 5-15%
# under version 19 at 64 x 28672 x 8192 and 64 x 8192 x 28672; if not,
# within 3% (version 13 was 1.1-1.25x version 12 from M = 128, run 17).
cd .carry
L=/tmp/logs && mkdir -p $L
START=$(date +%s); export START
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-D.txt
./device-ab.sh $L/ab-D.log 200 2 "_bf16 v19 b512 64x sym" base mc64
./device-ab.sh $L/ab-D.log 200 2 "_bf16 v13 b512 64x sym" base mc64
./device-ab.sh $L/ab-D.log 230 2 "_bf16 v13 b512 128x sym" base mc64
echo "A/B done at $(( $(date +%s) - START )) s" | tee -a $L/device-D.txt
./variant-tests.sh $L/device-D.txt int4_linear mc64
grep -E "FAILED|failed|panicked" $L/tests-int4_linear-mc64.log | head -20 >> $L/device-D.txt
date -u >> $L/device-D.txt
tar czf $OUT/logs-D.tar.gz -C $L .
