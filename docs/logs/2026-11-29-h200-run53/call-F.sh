#!/bin/bash
# Run 53 call F (H200): call E's ncu found 240 excess L2 sectors a block
# and step in versions 19 and 24 at 28672 x 8192 (46% of version 24's
# sectors): each producer thread loads its row's scale, 2 bytes, a step,
# rows 128 bytes apart, where a layer of symmetric weights has rows of at
# most 64 groups (the scalar loads; version 23 reads 8 steps' at a time
# there since run 48: 7.8% faster at 16 x 28672 x 8192). `w24`
# (`v24-short-row-windows.patch`) and `w19` (`v19-short-row-windows.patch`)
# give versions 24 and 19 the windows on such rows too (one line each).
# Against HEAD 7452670 (`base`), three rounds, bf16, symmetric, G = 128:
# version 24 at M = 32, version 19 at M = 64 and 128 (each with its
# split). Then w24's int4 linear GPU tests and memcheck of the 32-row
# tile's test.
# Predicted: 3-8% off 4096 x 4096, 11008 x 4096 and 28672 x 8192 (the
# rows of 32 and 64 groups); 4096 x 11008 (86 groups: no whole windows)
# and 8192 x 28672 (224: windows already) within 1%.
cd .carry
L=/tmp/logs && mkdir -p $L
START=$(date +%s); export START
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-F.txt
./device-ab.sh $L/ab-F.log 200 3 "_bf16 v24 b512 32x sym" base w24
./device-ab.sh $L/ab-F.log 250 3 "_bf16 v19 b512 64x sym" base w19
./device-ab.sh $L/ab-F.log 280 2 "_bf16 v19 b512 128x sym" base w19
echo "A/B done at $(( $(date +%s) - START )) s" | tee -a $L/device-F.txt
./variant-tests.sh $L/device-F.txt int4_linear w24 gpu::thirty_two_row_tile_ragged
date -u >> $L/device-F.txt
tar czf $OUT/logs-F.tar.gz -C $L .
