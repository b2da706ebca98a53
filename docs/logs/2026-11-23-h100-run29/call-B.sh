#!/bin/bash
# Run 29 call B: the whole int4 report in bf16 of HEAD (ef8c693, without
# version 24) and PyTorch's linear peers in the same sitting, then their
# comparison; `ncu` of versions 17 and 24 at 1 x 11008 x 4096 (version 24
# from call A's binary, `quant-kernels-v24`).
cd .carry && tar xJf t.tar.xz && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-B.txt
timeout 330 ./quant-kernels bench --kernel "int4_linear bf16" --json $L/report-B.json --png $L/report-B.png > $L/bench-B.log 2>&1; echo "bench exit $?"; tail -2 $L/bench-B.log
timeout 110 python3 torch_peers.py --only linear --json $L/torch-B.json > $L/peers-B.log 2>&1; echo "peers exit $?"; tail -1 $L/peers-B.log
python3 compare.py $L/report-B.json $L/torch-B.json --markdown $L/compare-B.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare-B.md | cut -d'|' -f2-5,8,12,13
N=/usr/local/cuda/bin/ncu
M="--clock-control none --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,dram__bytes_read.sum"
for k in "quant-kernels int4_linear_v17_m8_w2_g128_bf16 v17 groups 1 b64 1x11008x4096 sym" "quant-kernels-v24 int4_linear_v24_w2_g128_bf16 v24 groups 1 b64 1x11008x4096 sym"; do
  echo "##### $k"; b=${k%% *}; k=${k#* }
  timeout 60 $N $M -k regex:^${k%% *}\$ -c 1 ./$b bench --kernel "$k" --iters 1 2>&1 | grep -v "^\["
done > $L/ncu-B.log 2>&1
grep -E "^#####|Duration|DRAM Throughput|inst_executed|long_scoreboard|stalled_wait|stalled_math|stalled_short|stalled_barrier|stalled_not_selected|Issue Slots Busy|Warp Cycles Per Issued" $L/ncu-B.log | cut -c1-110
