#!/bin/bash
# Run 58 call E (H200): `ncu --section SourceCounters` of HEAD's version
# 12 `_g128_` at 128 x 28672 x 8192 (the planner's pick, 90.5 µs in call C)
# and version 19 at 64 x 28672 x 8192 (62.6 µs, 1.89x cuBLAS against the
# 2x target): which role's instructions stall, and on what, after the
# packed constants. No prediction: measurements for the next change.
cd .carry && xz -dc qk.xz > qk && chmod +x qk
L=$OUT && mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-E.txt
for c in "int4_linear_v12_g128_bf16 128x28672x8192" "int4_linear_v19_bf16 64x28672x8192"; do
    set -- $c
    timeout 150 /usr/local/cuda/bin/ncu --section SourceCounters --section WarpStateStats --section SpeedOfLight \
        --metrics sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active -k regex:"^$1\$" -c 1 \
        -o $L/ncu-src-$1 ./qk bench --kernel "$1 $2 sym g128" --iters 1 > $L/ncu-$1.log 2>&1
    echo "ncu $c exit $?" | tee -a $L/device-E.txt
    timeout 60 /usr/local/cuda/bin/ncu --import $L/ncu-src-$1.ncu-rep --page details > $L/ncu-details-$1.txt 2>&1
    timeout 60 /usr/local/cuda/bin/ncu --import $L/ncu-src-$1.ncu-rep --page source --csv --print-source sass > $L/ncu-src-$1.csv 2>&1
    gzip -9 $L/ncu-src-$1.csv && rm $L/ncu-src-$1.ncu-rep
done
cd $L && tar czf logs-E.tar.gz ncu-*.log ncu-details-*.txt && rm ncu-*.log ncu-details-*.txt
date -u >> $L/device-E.txt
