#!/bin/bash
# Run 53 call C (H200): does the pipeline's 2.4-2.6 TB/s ceiling at the
# large shapes (calls A and B) come from DRAM pages opened for 1 KB each?
# A step's TMA copy of versions 23 and 24 reads 1 KB (a band's step) from
# each of 16 bands 64 KB or more apart, and the band's next 1 KB a step
# later. Variants: `pf1` asks the L2 for the next step's box with each
# even step's copy (a band's 2 KB at once, `tma-pair-prefetch.patch`),
# `pf3` for the next three with every fourth (4 KB,
# `tma-quad-prefetch.patch`); against HEAD 7452670 (`base`). Two rounds,
# bf16, symmetric, G = 128, the five shapes: version 23 at M = 16 and
# version 24 at M = 32, split and not. Then pf1's int4 linear GPU tests.
# Predicted: if pages are the cause, 5-20% off the large shapes (toward
# the decode GEMV's 3.26 TB/s at 1 x 28672 x 8192); if not, within 1-2%
# (a prefetch is one instruction of one thread).
cd .carry
L=/tmp/logs && mkdir -p $L
START=$(date +%s); export START
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-C.txt
./device-ab.sh $L/ab-C.log 240 2 "_bf16 v23 b512 16x sym" base pf1 pf3
./device-ab.sh $L/ab-C.log 240 2 "_bf16 v24 b512 32x sym" base pf1 pf3
echo "A/B done at $(( $(date +%s) - START )) s" | tee -a $L/device-C.txt
./variant-tests.sh $L/device-C.txt int4_linear pf1
date -u >> $L/device-C.txt
tar czf $OUT/logs-C.tar.gz -C $L .
