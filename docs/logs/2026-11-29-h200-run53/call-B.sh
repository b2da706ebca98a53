#!/bin/bash
# Run 53 call B (H200): why version 25 gained 1-2% where 15% was predicted
# (call A). The same walk with a grid of 132 blocks (`sk`), 112 (`sk112`,
# as many as 28672 x 8192 has tiles: no tile is cut there) and 66
# (`sk66`), two rounds, bf16, symmetric, G = 128, at 28672 x 8192 and
# 8192 x 28672 (M = 1 to 64). Then, where ncu is installed, DRAM and L2
# throughput of version 23 (base) and version 25 (sk) at 16 x 28672 x 8192.
# Predicted: if the walk's steps were as fast as version 23's, 112 blocks
# would take version 23's 48 µs and 66 blocks 1.7x that; if the layer is
# bound by a DRAM rate at this access pattern (2.4 TB/s in call A), 112
# and 132 blocks take the same time and 66 not much more.
cd .carry
L=/tmp/logs && mkdir -p $L
START=$(date +%s); export START
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-B.txt
./device-ab.sh $L/ab-B.log 200 2 "_bf16 v25 sym 28672x8192" sk sk112 sk66
./device-ab.sh $L/ab-B.log 200 1 "_bf16 v25 sym 8192x28672" sk sk112 sk66
echo "A/B done at $(( $(date +%s) - START )) s" | tee -a $L/device-B.txt
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
echo "ncu: ${NCU:-none}" | tee -a $L/device-B.txt
if [ -n "$NCU" ]; then
    M=gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct,sm__cycles_active.avg,l1tex__m_xbar2l1tex_read_bytes.sum
    for c in "base int4_linear_v23_bf16 16x28672x8192" "sk int4_linear_v25_m16_bf16 16x28672x8192" "base int4_linear_v19_bf16 64x28672x8192" "sk int4_linear_v25_m64_bf16 64x28672x8192"; do
        set -- $c
        timeout 120 $NCU --metrics $M -k regex:"$2" -c 2 ./qk-$1 bench --kernel "$2 $3 sym" --iters 2 > $L/ncu-$1-$2.log 2>&1
        echo "ncu $c exit $?" | tee -a $L/device-B.txt
    done
fi
date -u >> $L/device-B.txt
tar czf $OUT/logs-B.tar.gz -C $L .
