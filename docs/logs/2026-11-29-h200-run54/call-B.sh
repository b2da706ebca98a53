#!/bin/bash
# Run 54 call B (H200): what each part of the pipeline's step costs, from
# three probes on HEAD 4e95df9 (wrong outputs by design, timed only):
#   noact   (probe-noact.patch): the producers copy no activations (a
#           plain arrival in place of the copies' arrival);
#   noconst (probe-noconst.patch): the producers load and store no group
#           constants;
#   nosub   (probe-nosub.patch): the consumers' packed subtract of
#           `MAGIC + z` dropped (64 of version 23's 313 instructions a
#           warp and step, 20% of the consumers' instructions).
# Call A's ncu source sampling of version 23 at 16 x 28672 x 8192: the
# consumers hold 60% of the warp samples and issue every 4.2 cycles, the
# producers (99 instructions a warp and step, 2 warps a scheduler) take
# 0.18 of the 0.66 instructions a scheduler issues a cycle.
# Predicted: noact and noconst 0-4% faster (their share of the producers'
# instructions, which compete with the consumers for issue); nosub up to
# 15% if the consumers' instructions set the step, capped near 7% at
# 28672 x 8192 by the memory side (run 53 call B: 0.70 µs a step at 112
# blocks); within 2% if they do not.
# Two rounds, alternating order, bf16, G = 128: version 23 at M = 16,
# 24 at 32, 19 at 64 (versions 19 and 24 share the producers' loop;
# version 19's consumers take the scaled path, nosub drops its subtract
# too).
cd .carry
L=/tmp/logs && mkdir -p $L
START=$(date +%s); export START
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-B.txt
for r in 1 2; do
    ./device-ab.sh $L/ab-B.log 470 1 "_bf16 v23 16x" base noact noconst nosub
    ./device-ab.sh $L/ab-B.log 470 1 "_bf16 v24 32x" nosub noconst noact base
    ./device-ab.sh $L/ab-B.log 470 1 "_bf16 v19 64x" base noact noconst nosub
done
echo "A/B done at $(( $(date +%s) - START )) s" | tee -a $L/device-B.txt
date -u >> $L/device-B.txt
tar czf $OUT/logs-B.tar.gz -C $L .
