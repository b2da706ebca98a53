#!/bin/bash
# Run 51 call D (H200): HEAD (the `_m16_` entry points' paired constants at
# G = 128, d5797ee, and its test) against 4d010fc (`base`), version 17's
# `_m16_` blocks at M = 16 (two rounds) and its `_m8_` ones at M = 1 (one
# round; their PTX is byte-identical to base's). Then every GPU test binary,
# compute-sanitizer on the changed entry points and the PyTorch semantics
# check, through scripts/gpu-check.sh (its first run on a GPU with
# SANITIZE_RUNS of single tests).
# Predicted before the call: final as call C's pairs2 at M = 16 (0.8-7%
# faster than base), M = 1 within 0.5%; every test and sanitizer clean.
cd .carry && rm -rf tests && tar xJf t.tar.xz && xz -dc qk.xz > quant-kernels && chmod +x quant-kernels
L=/tmp/logs && mkdir -p $L
START=$(date +%s); export START
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-D.txt
./device-ab.sh $L/ab-D.log 200 2 "int4_linear _m16_ _bf16 v17 16x" base final
./device-ab.sh $L/ab-D.log 250 1 "int4_linear _m8_ _bf16 v17 1x" base final
echo "A/B done at $(( $(date +%s) - START )) s" | tee -a $L/device-D.txt
T=gpu::
STEPS="tests sanitizer torch" SANITIZE_RUNS="memcheck:int4_linear:--exact,${T}decode_paired_constants_both_parities \
racecheck:int4_linear:--exact,${T}decode_paired_constants_both_parities \
synccheck:int4_linear:--exact,${T}decode_paired_constants_both_parities \
memcheck:int4_linear:--exact,${T}v17_every_block_shape racecheck:int4_linear:--exact,${T}v17_every_block_shape \
memcheck:int4_linear:--exact,${T}matches_reference_every_group_mode_and_batch" \
  timeout 420 ./gpu-check.sh $L/check > /dev/null 2>&1; echo "gpu-check exit $? at $(( $(date +%s) - START )) s" | tee -a $L/device-D.txt
grep -E "^== |test result|FAILED|SUMMARY|^-- " $L/check/checks.log | tail -40
date -u >> $L/device-D.txt
tar czf $OUT/logs-D.tar.gz -C $L .
