#!/bin/bash
# Run 38 call C: the build to be committed (b55e3c6's library, PTX
# byte-identical; the misaligned-outputs test added): every GPU test binary,
# memcheck and synccheck of the new test; then the elementwise report
# (every version, size and type, with run 37's rest between cases), the
# PyTorch elementwise peers and their comparison: the elementwise rows were
# last timed in run 31, before the rest.
cd .carry && rm -rf tests && tar xJf t.tar.xz && xz -dc quant-kernels.xz > quant-kernels && chmod +x quant-kernels && L=/tmp/logs && mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-C.txt
for t in int4_linear int4_weights ptx raw_launch graph add_mul_exp quantize_int8; do
  REQUIRE_GPU=1 timeout 150 ./tests/$t > $L/tests-$t-C.log 2>&1; echo "$t exit $?" | tee -a $L/tests-C.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-C.log | tail -3 | tee -a $L/tests-C.log
done
for tool in memcheck synccheck; do
  REQUIRE_GPU=1 timeout 100 compute-sanitizer --tool $tool ./tests/int4_linear --exact gpu::tiled_gemms_misaligned_outputs > $L/sanitizer-$tool-C.log 2>&1
  echo "$tool exit $?: $(grep -E 'ERROR SUMMARY|test result' $L/sanitizer-$tool-C.log | tr '\n' ' ')" | tee -a $L/tests-C.log
done
date -u >> $L/device-C.txt
for k in add_mul_exp quantize_int8; do
  timeout 120 ./quant-kernels bench --kernel $k --json $L/report-C-$k.json --png $L/report-C-$k.png > $L/bench-C-$k.log 2>&1; echo "$k exit $?"
done
python3 - $L/report-C-add_mul_exp.json $L/report-C-quantize_int8.json $L/report-C-elementwise.json <<'PY'
import json, sys
a, q = (json.load(open(p)) for p in sys.argv[1:3])
a["rows"] += [r for r in q["rows"] if r["op"] == "quantize_int8"]
json.dump(a, open(sys.argv[3], "w"))
PY
date -u >> $L/device-C.txt
timeout 200 python3 torch_peers.py --only elementwise --json $L/torch-C-elementwise.json > $L/peers-C-elementwise.log 2>&1; echo "peers exit $?"; tail -1 $L/peers-C-elementwise.log
python3 compare.py $L/report-C-elementwise.json $L/torch-C-elementwise.json --markdown $L/compare-C-elementwise.md > /dev/null 2>&1
grep -E "^\| (f32|f16|bf16) " $L/compare-C-elementwise.md | cut -d'|' -f2-4,6-10
date -u >> $L/device-C.txt
rm -f $L/report-C-add_mul_exp.json $L/report-C-quantize_int8.json
tar czf $OUT/logs-C.tar.gz -C $L .
