#!/bin/bash
# Run 35 call H (probe, wrong only if the probe is): split-K summed in the
# GEMM's own grid. qk-probe is a7005cd plus probe-atomic-split-k-H.patch:
# with QK_PROBE_ATOMIC set, version 23's split calls with the caller's
# workspace (the report's, zeroed once) run one kernel whose blocks add
# their partial tiles into one f32 tile (red.add), the last block of a
# tile (an arrival counter) adding the bias, storing y and zeroing the
# tile and counter; without it, the library's two kernels. Same binary,
# interleaved, three rounds; the report checks every case against the
# f64 reference after its first launch, and first, with --iters 3, after
# three (a tile or counter left unzeroed would double the second's sums).
cd .carry && xz -dc qk-probe.xz > qk-probe && chmod +x qk-probe && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-H.txt
for f in "16x4096x _bf16 v23" "16x11008x4096 _bf16 v23" "16x8192x28672 _bf16 v23"; do
  echo "### iters 3 atomic $f" >> $L/probe-H.log
  QK_PROBE_ATOMIC=1 timeout 60 ./qk-probe bench --kernel "int4_linear $f" --iters 3 --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "split.*(launched|FAIL)" >> $L/probe-H.log
done
for round in 1 2 3; do for f in "16x4096x _bf16 v23" "16x11008x4096 _bf16 v23" "16x8192x28672 _bf16 v23"; do
  echo "### round $round two-kernels $f" >> $L/probe-H.log
  timeout 60 ./qk-probe bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "split.*(graph cold|FAIL)" >> $L/probe-H.log
  echo "### round $round atomic $f" >> $L/probe-H.log
  QK_PROBE_ATOMIC=1 timeout 60 ./qk-probe bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "split.*(graph cold|FAIL)" >> $L/probe-H.log
done; done
date -u >> $L/device-H.txt
