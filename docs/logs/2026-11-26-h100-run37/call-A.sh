#!/bin/bash
# Run 37 call A: run 36's tile-order-128-row-tiles-only.patch (qk-new: the
# grouped walk kept to versions 12 and 13; versions 19, 22 and 23 read their
# tiles as launched again). Its int4 linear, PTX, raw-launch and graph GPU
# tests and memcheck of the many-groups test; then an A/B against 4ef4656
# (qk-base, before run 36's walk) where versions 19, 22 and 23 had measured
# 0-2% slower; then the SM clock beside version 13 at 1024 x 4096 x 11008,
# alone and after the other versions of its case (run 36's unexplained gap).
cd .carry && rm -rf tests && tar xJf t.tar.xz && for b in base new; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-A.txt
Q=clocks_event_reasons.active; nvidia-smi --query-gpu=$Q --format=csv > /dev/null 2>&1 || Q=clocks_throttle_reasons.active
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,$Q --format=csv -lms 100 > $L/smi-A.csv 2>&1 &
SMI=$!
for t in int4_linear ptx raw_launch graph; do
  REQUIRE_GPU=1 timeout 120 ./tests/$t > $L/tests-$t-A.log 2>&1; echo "$t exit $?" | tee -a $L/tests-A.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-A.log | tail -3 | tee -a $L/tests-A.log
done
REQUIRE_GPU=1 timeout 100 compute-sanitizer --tool memcheck ./tests/int4_linear gpu::tiled_gemms_many_tile_groups > $L/sanitizer-memcheck-A.log 2>&1
echo "memcheck exit $?: $(grep -E 'ERROR SUMMARY|test result' $L/sanitizer-memcheck-A.log | tr '\n' ' ')" | tee -a $L/tests-A.log
date -u >> $L/device-A.txt
clock() { echo "### $(date -u +%T.%N) $*" >> $L/clock-A.log; }
clock "v13 alone"; timeout 60 ./qk-new bench --kernel "int4_linear 1024x4096x11008 _bf16 v13" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/clock-A.log
clock "the whole case"; timeout 90 ./qk-new bench --kernel "int4_linear 1024x4096x11008 _bf16" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/clock-A.log
clock "v13 alone again"; timeout 60 ./qk-new bench --kernel "int4_linear 1024x4096x11008 _bf16 v13" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/clock-A.log
clock end
date -u >> $L/device-A.txt
for f in "16x11008x4096 _bf16 v23" "16x4096x11008 _bf16 v23" "16x8192x28672 _bf16 v23" "16x28672x8192 _bf16 v23" "64x4096x11008 _bf16 v19" "64x11008x4096 _bf16 v19" "16x8192x28672 _bf16 v22"; do for b in base new; do
  echo "### $b $f" >> $L/ab-A.log
  timeout 60 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-A.log
done; done
kill $SMI; date -u >> $L/device-A.txt
