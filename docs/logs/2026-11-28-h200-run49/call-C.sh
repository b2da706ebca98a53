#!/bin/bash
# Run 49 call C (H200), the session's last: (1) the elementwise reports
# and their PyTorch peers on HEAD (a71ddfc), the H200's first, as run 38's
# call C; (2) run 43's three probes of the decode GEMV again, on the H200
# (call B: every way of putting more codes in flight was slower here too):
# `compute` (every batch reloads the warp's first: the arithmetic with L1
# hits), `loads` (the loop's loads alone, no MMA), `nosum` (no activation
# sums), against HEAD (`base`), two rounds in opposite orders; (3)
# racecheck of the ragged-tile test on HEAD (call A ran out of time).
cd .carry && rm -rf tests && tar xJf t.tar.xz && L=/tmp/logs && mkdir -p $L
B="base compute loads nosum"
xz -dc qk.xz > qk-base && for b in $B; do [ -f qk-$b.xz ] && xz -dc qk-$b.xz > qk-$b; chmod +x qk-$b; done && cp qk-base quant-kernels
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-C.txt
export CUDA_CACHE_MAXSIZE=4294967296
for b in $B; do timeout 150 ./qk-$b bench --kernel "int4_linear 1x4096x4096 _m8_ _bf16 v17" --json /tmp/w-$b.json --png /tmp/w-$b.png > /tmp/warm-$b.log 2>&1 & done
REQUIRE_GPU=1 timeout 150 ./tests/int4_linear --exact gpu::empty_k_gives_bias > /tmp/warm-tests.log 2>&1 &
wait
echo "warm at $(( $(date +%s) - START )) s" | tee -a $L/ab-C.log
for k in add_mul_exp quantize_int8; do
  timeout 120 ./quant-kernels bench --kernel $k --json $L/report-C-$k.json --png $L/report-C-$k.png > $L/bench-C-$k.log 2>&1; echo "$k exit $? at $(( $(date +%s) - START )) s"
done
python3 - $L/report-C-add_mul_exp.json $L/report-C-quantize_int8.json $L/report-C-elementwise.json <<'PY'
import json, sys
a, q = (json.load(open(p)) for p in sys.argv[1:3])
a["rows"] += [r for r in q["rows"] if r["op"] == "quantize_int8"]
json.dump(a, open(sys.argv[3], "w"))
PY
timeout 200 python3 torch_peers.py --only elementwise --json $L/torch-C-elementwise.json > $L/peers-C-elementwise.log 2>&1; echo "peers exit $? at $(( $(date +%s) - START )) s"
python3 compare.py $L/report-C-elementwise.json $L/torch-C-elementwise.json --markdown $L/compare-C-elementwise.md > /dev/null 2>&1
grep -E "^\| (f32|f16|bf16) " $L/compare-C-elementwise.md | cut -d'|' -f2-4,6-10
rm -f $L/report-C-add_mul_exp.json $L/report-C-quantize_int8.json; gzip $L/bench-C-*.log
date -u >> $L/device-C.txt
tar czf $OUT/logs-C.tar.gz -C $L .
ab() { # time limit, builds, filter
  for b in $2; do
    [ $(( $(date +%s) - START )) -gt $1 ] && { echo "$b $3 not run: time" >> $L/ab-C.log; continue; }
    echo "### $b $3 (at $(( $(date +%s) - START )) s)" >> $L/ab-C.log
    timeout 60 ./qk-$b bench --kernel "int4_linear $3" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|rror" | grep -v Memcpy >> $L/ab-C.log
  done
  tar czf $OUT/logs-C.tar.gz -C $L .
}
ab 330 "base compute loads nosum" "_m8_ _bf16 v17 1x"
ab 360 "nosum loads compute base" "_m8_ _bf16 v17 1x"
date -u >> $L/device-C.txt
[ $(( $(date +%s) - START )) -lt 380 ] && { REQUIRE_GPU=1 timeout $(( 585 - ($(date +%s) - START) )) compute-sanitizer --tool racecheck ./tests/int4_linear --exact gpu::gemm_tiles_ragged > $L/sanitizer-racecheck-gemm_tiles_ragged-C.log 2>&1
  echo "racecheck gpu::gemm_tiles_ragged exit $? at $(( $(date +%s) - START )) s: $(grep -E 'RACECHECK SUMMARY|test result' $L/sanitizer-racecheck-gemm_tiles_ragged-C.log | tr '\n' ' ')" | tee $L/sanitizers-C.log; }
date -u >> $L/device-C.txt
tar czf $OUT/logs-C.tar.gz -C $L .
