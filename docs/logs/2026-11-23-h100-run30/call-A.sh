#!/bin/bash
# Run 30 call A: version 24 with fewer instructions a step (run 29's
# version-24-lean.patch applied to c547341). The int4 linear and PTX GPU
# tests; compute-sanitizer of the block-shape test (versions 17 and 24);
# versions 17 and 24 at M = 1 in bf16 and f16; `ncu` of both at
# 1 x 11008 x 4096; the elementwise report and PyTorch's elementwise peers.
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-A.txt
for t in int4_linear ptx; do echo "=== tests/$t" >> $L/tests-A.log; timeout 120 tests/$t >> $L/tests-A.log 2>&1; echo "$t exit $?"; done
grep -hE "^===|test result|FAILED|panicked" $L/tests-A.log | head -20
for tool in memcheck racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 99 tests/int4_linear grouped_versions_every_block_shape --test-threads=1 > $L/sanitizer-$tool-A.log 2>&1; echo "$tool exit $?"
done
grep -hE "ERROR SUMMARY|RACECHECK SUMMARY|test result" $L/sanitizer-*-A.log
unset REQUIRE_GPU
for d in bf16 f16; do for v in v17 v24; do
  timeout 60 ./quant-kernels bench --kernel "int4_linear 1x $d $v" --json $L/report-A-$d-$v.json --png /tmp/p.png >> $L/bench-A.log 2>&1; echo "bench $d $v exit $?"
done; done
grep -E "graph cold" $L/bench-A.log | grep -E "Memcpy|_g128_" | sed 's/^\[ *[0-9.]* s\] //' | cut -c1-100
N=/usr/local/cuda/bin/ncu
M="--clock-control none --section SpeedOfLight --section WarpStateStats --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,dram__bytes_read.sum"
for k in "int4_linear_v17_m8_w2_g128_bf16 v17 groups 1 b64 1x11008x4096 sym" "int4_linear_v24_w2_g128_bf16 v24 groups 1 b64 1x11008x4096 sym"; do
  echo "##### $k"; timeout 60 $N $M -k regex:^${k%% *}\$ -c 1 ./quant-kernels bench --kernel "$k" --iters 1 2>&1 | grep -v "^\["
done > $L/ncu-A.log 2>&1
grep -E "^#####|Duration|DRAM Throughput|inst_executed|long_scoreboard|stalled_wait|stalled_short|stalled_not_selected|Warp Cycles Per Issued" $L/ncu-A.log | cut -c1-110
timeout 60 ./quant-kernels bench --kernel add_mul_exp --json /tmp/a.json --png $L/report-A-add_mul_exp.png > $L/bench-A-elementwise.log 2>&1; echo "add_mul_exp exit $?"
timeout 60 ./quant-kernels bench --kernel quantize_int8 --json /tmp/q.json --png $L/report-A-quantize_int8.png >> $L/bench-A-elementwise.log 2>&1; echo "quantize exit $?"
timeout 120 python3 torch_peers.py --only elementwise --json $L/torch-A-elementwise.json > $L/peers-A-elementwise.log 2>&1; echo "peers exit $?"; tail -1 $L/peers-A-elementwise.log
python3 - <<'PY'
import json, os
L = os.environ["OUT"]
a = json.load(open("/tmp/a.json")); q = json.load(open("/tmp/q.json"))
a["rows"] += [r for r in q["rows"] if "quantize" in json.dumps(r)]
json.dump(a, open(f"{L}/report-A-elementwise.json", "w"))
PY
python3 compare.py $L/report-A-elementwise.json $L/torch-A-elementwise.json --markdown $L/compare-A-elementwise.md > /dev/null 2>&1; grep -E "^\| " $L/compare-A-elementwise.md | head -70
