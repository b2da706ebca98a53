#!/bin/bash
# Run 52 call D (H200): version 24 with each step's codes copied by the TMA
# unit (version 23's feed, `v24-tma.patch`: `tma`) against HEAD's copies
# by the producer threads (`new`, HEAD 9a56920's build of call B), at M = 32
# (three rounds, bf16, symmetric, G = 128, the report's five shapes); then
# the tma build's int4 linear GPU tests (its plan test expects no tensor map
# for version 24 and fails by design) and memcheck of the tile's test.
# Predicted before the call: as version 23 against version 22 at 16 rows
# (run 46: 4.7-6.9% faster unsplit, split calls mixed): 3-6% faster at 32 x
# 28672 x 8192, the split calls within 3% either way.
cd .carry && cp qk.xz qk-new.xz
L=/tmp/logs && mkdir -p $L
START=$(date +%s); export START
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-D.txt
./device-ab.sh $L/ab-D.log 200 3 "int4_linear _bf16 v24 32x" new tma
echo "A/B done at $(( $(date +%s) - START )) s" | tee -a $L/device-D.txt
./variant-tests.sh $L/device-D.txt int4_linear tma gpu::thirty_two_row_tile_ragged
date -u >> $L/device-D.txt
tar czf $OUT/logs-D.tar.gz -C $L .
