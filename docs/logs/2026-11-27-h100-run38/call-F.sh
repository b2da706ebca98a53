#!/bin/bash
# Run 38 call F: how much of a tile the epilogue costs. Three builds of
# b55e3c6's library: as shipped (qk-base), with run 37's paired-store
# epilogue (qk-pairs, call A's build), and a probe with no epilogue (qk-noepi,
# probe-no-epilogue-F.patch: one store a lane, of the sum of its
# accumulators; wrong results, so the check fails, but the MMAs all run).
# Three rounds, the builds alternating.
cd .carry && for b in base pairs noepi; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-F.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv -lms 100 > $L/smi-F.csv 2>&1 &
SMI=$!
for round in 1 2 3; do
  for f in "8192x4096x4096 _bf16 v13" "1024x4096x4096 _bf16 v13" "8192x11008x4096 _bf16 v13" "8192x4096x4096 _bf16 v12"; do
    for b in base pairs noepi; do
      echo "### round $round $b $f" >> $L/ab-F.log
      timeout 60 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" | grep -v split >> $L/ab-F.log
    done
  done
done
kill $SMI; gzip $L/smi-F.csv; date -u >> $L/device-F.txt
