#!/bin/bash
# Run 51 call G (H200): HEAD's report (its launch-overhead lines now name
# each version and block and mark the library's pick) on version 17 at 1 x
# 4096 x 4096, bf16, symmetric. Predicted before the call: the one-group
# block (256 threads) marked as the library's pick, 3-4% over its graph
# time (calls D of run 50 and E here), the two-group block not marked.
cd .carry && xz -dc quant-kernels.xz > quant-kernels && chmod +x quant-kernels
L=/tmp/logs && mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-G.txt
timeout 150 ./quant-kernels bench --kernel "int4_linear_v17 bf16 1x4096x4096 sym" --json /tmp/g.json --png /tmp/g.png > $L/bench-G.log 2>&1
echo "bench exit $?" | tee -a $L/device-G.txt
grep -A4 "Launch overhead" $L/bench-G.log
date -u >> $L/device-G.txt
tar czf $OUT/logs-G.tar.gz -C $L .
