set -x
cd .carry && tar xJf bins.tar.xz && L=$OUT && export REQUIRE_GPU=1
nvidia-smi --query-gpu=name,driver_version --format=csv
(tests/add_mul_exp; tests/quantize_int8) > $L/tests.log 2>&1; tail -3 $L/tests.log; grep -c "^test .* ok$" $L/tests.log; grep -E "FAILED|panicked" $L/tests.log | head
./quant-kernels bench --kernel add_mul_exp --json $L/a.json --png /tmp/a.png > $L/bench.log 2>&1
./quant-kernels bench --kernel quantize_int8 --json $L/q.json --png /tmp/q.png >> $L/bench.log 2>&1
python3 torch_peers.py --only elementwise --json $L/torch.json > $L/peers.log 2>&1; tail -2 $L/peers.log
python3 - $L <<'PY'
import json,sys
d=sys.argv[1]; a=json.load(open(d+'/a.json')); q=json.load(open(d+'/q.json')); a['rows']+= [r for r in q['rows'] if 'quantize' in json.dumps(r)]
json.dump(a, open(d+'/report.json','w'))
PY
python3 compare.py $L/report.json $L/torch.json --markdown $L/compare.md > /dev/null 2>&1; head -70 $L/compare.md
N=/usr/local/cuda/bin/ncu; M="--clock-control none --section SpeedOfLight --section LaunchStats --section WarpStateStats --metrics smsp__inst_executed.sum,gpu__time_duration.sum"
for k in "add_mul_exp_v3_f16 100K" "add_mul_exp_v3_f16 1M" "quantize_int8_v3_f16 100K" "quantize_int8_v3_f16 1M"; do
  $N $M -k regex:${k%% *} -c 1 ./quant-kernels bench --kernel "$k" --iters 1 2>&1 | grep -v "^\[" ; done > $L/ncu.log 2>&1
$N $M -k regex:triton python3 ncu_triton.py >> $L/ncu.log 2>&1
grep -E "^  [a-z_]+.*\(|Duration|inst_executed|time_duration|DRAM Through|Registers|Grid Size|Block Size|Issue|Warp Cycles Per Issued" $L/ncu.log | head -150
