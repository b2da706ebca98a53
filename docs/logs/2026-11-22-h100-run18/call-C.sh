cd .carry && tar xJf bins.tar.xz && L=$OUT && export REQUIRE_GPU=1
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
(tests/add_mul_exp; tests/quantize_int8) > $L/tests.log 2>&1; grep -E "test result|FAILED|panicked|worst" $L/tests.log | head
./quant-kernels bench --kernel add_mul_exp --json $L/a.json --png /tmp/a.png > $L/bench.log 2>&1
./quant-kernels bench --kernel quantize_int8 --json $L/q.json --png /tmp/q.png >> $L/bench.log 2>&1
python3 torch_peers.py --only elementwise --json /tmp/torch.json > $L/peers.log 2>&1
python3 - $L <<'PY'
import json,sys
d=sys.argv[1]; a=json.load(open(d+'/a.json')); q=json.load(open(d+'/q.json')); a['rows']+= [r for r in q['rows'] if 'quantize' in json.dumps(r)]
json.dump(a, open('/tmp/report.json','w'))
PY
python3 compare.py /tmp/report.json /tmp/torch.json --markdown $L/compare.md
STEPS=sanitizer SANITIZE_RUNS="memcheck:add_mul_exp memcheck:quantize_int8 racecheck:add_mul_exp racecheck:quantize_int8" timeout 280 ./gpu-check.sh $L/san
