#!/bin/bash
# Run 38 call G: the producer-consumer GEMMs' epilogue in whole lines
# (qk-lines, tests: b4e0e66 with Lane::store_lines): the int4 linear, PTX,
# raw-launch and graph GPU tests; memcheck, racecheck and synccheck of the
# tiled tests; then an A/B against b55e3c6's library (qk-base), two rounds.
cd .carry && rm -rf tests && tar xJf t.tar.xz && for b in base lines; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=$OUT
START=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-G.txt
for t in int4_linear ptx raw_launch graph; do
  REQUIRE_GPU=1 timeout 150 ./tests/$t > $L/tests-$t-G.log 2>&1; echo "$t exit $?" | tee -a $L/tests-G.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$t-G.log | tail -3 | tee -a $L/tests-G.log
done
for c in "memcheck gpu::tiled_gemms_misaligned_outputs" "memcheck gpu::tiled_gemms_many_tile_groups" "racecheck gpu::tiled_gemms_many_tile_groups" "synccheck gpu::tiled_gemms_many_tile_groups" "racecheck gpu::gemm_tiles_ragged"; do
  set -- $c
  REQUIRE_GPU=1 timeout 200 compute-sanitizer --tool $1 ./tests/int4_linear --exact $2 > $L/sanitizer-$1-${2#gpu::}-G.log 2>&1
  echo "$1 $2 exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test result' $L/sanitizer-$1-${2#gpu::}-G.log | tr '\n' ' ')" | tee -a $L/tests-G.log
done
date -u >> $L/device-G.txt
for round in 1 2; do
  for f in "1024x4096x4096 _bf16 v13" "8192x4096x4096 _bf16 v13" "1024x11008x4096 _bf16 v13" "8192x11008x4096 _bf16 v13" "1024x4096x11008 _bf16 v13" "8192x4096x11008 _bf16 v13" "1024x28672x8192 _bf16 v13" "128x28672x8192 _bf16 v13" "8192x4096x4096 _bf16 v12" "64x28672x8192 _bf16 v19" "16x28672x8192 _bf16 v23"; do
    for b in base lines; do
      [ $(( $(date +%s) - START )) -gt 560 ] && break 3
      echo "### round $round $b $f" >> $L/ab-G.log
      timeout 60 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" | grep -v split >> $L/ab-G.log
    done
  done
done
date -u >> $L/device-G.txt
