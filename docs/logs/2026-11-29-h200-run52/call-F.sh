#!/bin/bash
# Run 52 call F (H200): the decode GEMV's prefetch reading the lane's row
# from a field of the lane (`lanerow`, lane-row-field.patch) in place of
# the lane id (`base`, HEAD f27feca), version 17's `_m8_` blocks at M = 1
# (two rounds, bf16, the report's five shapes); then lanerow's int4 linear
# GPU tests and memcheck of the decode test that covers the prefetch.
# Predicted before the call: within 0.5% on every shape (one instruction
# before the grid wait and one a batch, of about 233).
cd .carry
L=/tmp/logs && mkdir -p $L
START=$(date +%s); export START
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-F.txt
./device-ab.sh $L/ab-F.log 170 2 "int4_linear _m8_ _bf16 v17 1x" base lanerow
echo "A/B done at $(( $(date +%s) - START )) s" | tee -a $L/device-F.txt
timeout 100 ./variant-tests.sh $L/device-F.txt int4_linear lanerow gpu::v17_every_block_shape
date -u >> $L/device-F.txt
tar czf $OUT/logs-F.tar.gz -C $L .
