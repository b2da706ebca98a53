#!/bin/bash
# Run 34 call C: the build with V23_MAX_K = 28672 (no kernel change): the
# int4 linear, raw-launch and graph GPU tests (the huge past-grid-y test now
# also splits K), then versions 17 and 23 at 16 x 8192 x 28672 in f16 and
# bf16, two rounds interleaved.
cd .carry && ( [ -d tests ] || tar xJf t.tar.xz ) && ( [ -f qk ] || xz -dc qk-final.xz > qk ) && chmod +x qk && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-C.txt
for t in tests/*; do
  REQUIRE_GPU=1 timeout 200 ./$t > $L/tests-$(basename $t)-C.log 2>&1; echo "$(basename $t) exit $?" | tee -a $L/tests-C.log
  grep -E "FAILED|failed|panicked|test result" $L/tests-$(basename $t)-C.log | tail -3 | tee -a $L/tests-C.log
done
for round in 1 2; do for v in v17 v23; do
  echo "### round $round $v" >> $L/ab-C.log
  timeout 100 ./qk bench --kernel "int4_linear 16x8192x28672 $v" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" >> $L/ab-C.log
done; done
date -u >> $L/device-C.txt
