cd .carry && tar xJf bins.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/tests.log
for t in quantize_int8 raw_launch add_mul_exp; do tests/$t >> $L/tests.log 2>&1; done; grep -E "test result|FAILED|panicked" $L/tests.log | head -12
./quant-kernels bench --kernel add_mul_exp --json /tmp/a.json --png /tmp/a.png > $L/bench.log 2>&1
./quant-kernels bench --kernel quantize_int8 --json /tmp/q.json --png /tmp/q.png >> $L/bench.log 2>&1
python3 torch_peers.py --only elementwise --json /tmp/torch.json > $L/peers.log 2>&1; tail -1 $L/peers.log
python3 - <<'PY'
import json
a=json.load(open('/tmp/a.json')); q=json.load(open('/tmp/q.json')); a['rows']+= [r for r in q['rows'] if 'quantize' in json.dumps(r)]
json.dump(a, open('/tmp/report.json','w'))
PY
cp /tmp/report.json /tmp/torch.json $L/
python3 compare.py /tmp/report.json /tmp/torch.json --markdown $L/compare.md > /dev/null 2>&1; sed -n 10,70p $L/compare.md
STEPS=sanitizer SANITIZE_RUNS="memcheck:quantize_int8 racecheck:quantize_int8 memcheck:raw_launch" timeout 150 ./gpu-check.sh /tmp/san > /dev/null 2>&1; cp /tmp/san/checks.log $L/sanitizer.log; grep -E "^--|SUMMARY|test result|exit" $L/sanitizer.log
N=/usr/local/cuda/bin/ncu; M="--clock-control none --section SpeedOfLight --section WarpStateStats --metrics smsp__inst_executed.sum,gpu__time_duration.sum"
for k in "quantize_int8_v3_f16 100K" "quantize_int8_v3_f32 100K"; do
  $N $M -k regex:${k%% *} -c 1 ./quant-kernels bench --kernel "$k" --iters 1 2>&1 | grep -v "^\[" ; done > $L/ncu.log 2>&1
grep -E "^  [a-z_]+.*\(|inst_executed|time_duration|Warp Cycles Per Issued" $L/ncu.log
