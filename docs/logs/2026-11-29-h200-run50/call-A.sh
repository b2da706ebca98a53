#!/bin/bash
# Run 50 call A (H200): where the decode GEMV's loads lose against the copy.
# Run 49 found its loads alone (run 43's probe-loads-only.patch) at 76% of
# the copy at 1x28672x8192, and more codes in flight slower. Builds, each
# HEAD (4a25e5d, kernels of 5a9ef91) with patches, version 17's `_m8_`
# blocks at M = 1 on the five shapes, both modes, two rounds in opposite
# orders (scripts/device-ab.sh):
#   base       HEAD
#   nopf       run 49's no-prefetch-not-run.patch (no L2 prefetch)
#   loads      run 43's loads-only probe
#   loadsnopf  both
#   lin        probe-step-major.patch: the same code words read in a
#              step-major order (step s of every band, then s + 1), so the
#              warps in flight read neighbouring kilobytes instead of
#              kilobytes one band (4-14 KB x 16) apart; wrong outputs
#   loadslin   step-major loads alone
# Predicted before the call: nopf within 2% of base on the large shapes
# (run 18 on the H100); loadsnopf within 3% of loads, unless the L2's
# double lookup of each code line is the limit, when it is faster. lin
# 0-5% faster than base, loadslin faster than loads by more, if the DRAM
# pages the concurrent bands open are what costs (on the H100, run 20,
# one block a band streamed at the copy's rate, so probably little).
cd .carry && L=/tmp/logs && mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem --format=csv,noheader; } | tee $L/device-A.txt
./device-ab.sh $L/ab-A.log 420 2 "int4_linear _m8_ _bf16 v17 1x" base nopf loads loadsnopf lin loadslin
date -u >> $L/device-A.txt
cp $L/* $OUT/
