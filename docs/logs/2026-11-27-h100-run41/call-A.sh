#!/bin/bash
# Run 41 call A: does the decode GEMV (version 17, `_m8_`) gain from more
# warps a multiprocessor? The same build (2c95ca3) with the `_m8_` entry
# points' register cap (`.maxnreg`, build.rs) at 128 (shipped: 16 warps an
# SM), 96 (21), 80 (25) and 64 (32): each binary's v17 block sweep at
# M = 1 on the five shapes, bf16, both modes; then `ncu` of the shipped
# block at 1x11008x4096 and 1x4096x11008 (stall reasons and where).
cd .carry && for b in base r96 r80 r64; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=/tmp/logs && mkdir -p $L
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-A.txt
unset REQUIRE_GPU
sweep() {
  for b in base r96 r80 r64; do
    [ $(( $(date +%s) - START )) -gt $2 ] && { echo "$1 $b not run: time" >> $L/sweep-A.log; continue; }
    echo "### $b $1" >> $L/sweep-A.log
    timeout 90 ./qk-$b bench --sweep --kernel "int4_linear $1 _bf16 v17" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/sweep-A.log
  done
}
for c in 1x11008x4096 1x4096x11008 1x4096x4096; do sweep $c 300; done
for c in 1x28672x8192 1x8192x28672; do sweep $c 430; done
date -u >> $L/device-A.txt
tar czf $OUT/logs-A.tar.gz -C $L .
N=/usr/local/cuda/bin/ncu
M="--clock-control none --section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --section SourceCounters --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,dram__bytes_read.sum,lts__t_sectors_srcunit_tex_lookup_hit.sum,lts__t_sectors_srcunit_tex_lookup_miss.sum"
for k in "base int4_linear_v17_m8_w2_g128_bf16 v17 groups 1 b64 1x11008x4096 sym" "base int4_linear_v17_m8_w8_g128_bf16 v17 groups 1 b256 1x4096x11008 sym"; do
  b=${k%% *}; k=${k#* }
  [ $(( $(date +%s) - START )) -gt 540 ] && break
  echo "##### $b $k"; timeout 40 $N $M -k regex:^${k%% *}\$ -c 1 ./qk-$b bench --kernel "$k" --iters 1 2>&1 | grep -v "^\["
done > $L/ncu-A.log 2>&1
date -u >> $L/device-A.txt
tar czf $OUT/logs-A.tar.gz -C $L .
grep -E "^#####|Duration|DRAM Throughput|inst_executed|long_scoreboard|stalled_wait|stalled_not_selected|Warp Cycles Per Issued|Achieved Occupancy" $L/ncu-A.log | cut -c1-110
grep -E "###| sym " $L/sweep-A.log | sed 's/^\[ *[0-9.]* s\] //' | cut -c1-110
