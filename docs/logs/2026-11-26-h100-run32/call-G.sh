#!/bin/bash
# Run 32 call G: where versions 23 and 25 (call D's form) stall, by SASS
# instruction: ncu's warp-state samples of one launch each at 16 x 28672 x
# 8192 (bf16 sym), saved as reports and printed as the source page (SASS,
# CSV).
cd .carry && ( [ -f qk-base ] || tar xJf q.tar.xz ) && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-G.txt
for v in 23 25; do
  b=qk-base; [ $v = 25 ] && b=qk-v25
  timeout 200 ncu --clock-control none -k int4_linear_v${v}_bf16 -c 1 --section WarpStateStats --section SourceCounters \
    -o /tmp/r$v ./$b bench --kernel "int4_linear_v${v}_bf16 16x28672x8192 sym" --iters 1 > $L/ncu-G-v$v.log 2>&1
  echo "v$v profile exit $?" >> $L/device-G.txt
  ncu -i /tmp/r$v.ncu-rep --page source --csv --print-source sass > /tmp/src$v.csv 2>> $L/ncu-G-v$v.log
  echo "v$v source exit $? $(wc -l < /tmp/src$v.csv) lines" >> $L/device-G.txt
  gzip -c /tmp/src$v.csv > $L/source-G-v$v.csv.gz
done
date -u >> $L/device-G.txt
