#!/bin/bash
# Run 42 call F: the report's host side on all cores (the seeded normals,
# the quantizer, the f64 reference and `dequantize`, split over the
# machine's cores, bit for bit the same values): call E's base selection
# again, `--serialized`, with the build that has them (kernels as base).
# The progress lines' clock (`[ t s]`, from the first case's preparation)
# against call E's base says what each invocation's host work cost.
cd .carry && xz -dc qk-par.xz > qk-par && chmod +x qk-par && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; nproc; } | tee $L/device-F.txt
echo "### par serialized" >> $L/ab-F.log
timeout 150 ./qk-par bench --serialized --kernel "int4_linear _m8_ _bf16 v17 groups 1 1x sym" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-F.log
echo "invocation $(( $(date +%s) - START )) s" >> $L/ab-F.log
date -u >> $L/device-F.txt
tar czf $OUT/logs-F.tar.gz -C $L .
