#!/bin/bash
# Run 49 call B (H200): call A found the decode GEMV at 71-78% of the copy
# on the large shapes (H100: 90-92%), about the same bytes a second as on
# the H100, and its middle shapes hardly faster from the L2 (hot) than
# cold. The H100's lessons (runs 41 and 42: more of a warp's codes in
# flight made it slower there) were taken where the DRAM was the limit;
# here it is not. So the same variants again, on the H200, against HEAD
# (`base`): the codes through a shared-memory ring by bulk copies, 3 or 5
# batches ahead (`ring4`, `ring6`: run 42's code-ring.patch), the L2
# prefetch 3 or 4 batches ahead (`p3`, `p4`), activations loaded late
# with 4-step batches (`j4`, `j4p2`: run 42's jit-activations.patch).
# Version 17's `_m8_` blocks at M = 1, five shapes, both modes, two
# rounds in opposite orders. Then the 16-row windows by slice length
# (`win`: run 48's not-run patch) against base, two rounds.
cd .carry && L=/tmp/logs && mkdir -p $L
B="base ring4 ring6 p3 p4 j4 j4p2 win"
xz -dc qk.xz > qk-base && for b in $B; do [ -f qk-$b.xz ] && xz -dc qk-$b.xz > qk-$b; chmod +x qk-$b; done
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-B.txt
export CUDA_CACHE_MAXSIZE=4294967296
# The driver compiles each binary's PTX on its first run (about 40 s);
# all at once here, so that the timed runs below find it cached.
for b in $B; do timeout 150 ./qk-$b bench --kernel "int4_linear 1x4096x4096 _m8_ _bf16 v17" --json /tmp/w-$b.json --png /tmp/w-$b.png > /tmp/warm-$b.log 2>&1 & done; wait
echo "warm at $(( $(date +%s) - START )) s" | tee -a $L/ab-B.log
ab() { # time limit, builds, filter
  for b in $2; do
    [ $(( $(date +%s) - START )) -gt $1 ] && { echo "$b $3 not run: time" >> $L/ab-B.log; continue; }
    echo "### $b $3 (at $(( $(date +%s) - START )) s)" >> $L/ab-B.log
    timeout 60 ./qk-$b bench --kernel "int4_linear $3" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-B.log
  done
  tar czf $OUT/logs-B.tar.gz -C $L .
}
ab 250 "base ring4 ring6 p3 p4 j4 j4p2" "_m8_ _bf16 v17 1x"
ab 400 "j4p2 j4 p4 p3 ring6 ring4 base" "_m8_ _bf16 v17 1x"
for f in "16x28672x8192 _bf16 v2" "16x8192x28672 _bf16 v2" "16x4096x4096 _bf16 split_k v2" "16x11008x4096 _bf16 split_k v2" "16x4096x11008 _bf16 split_k v2"; do
  ab 470 "base win win base" "$f"
done
date -u >> $L/device-B.txt
tar czf $OUT/logs-B.tar.gz -C $L .
