#!/bin/bash
# Run 36 call A: the tiled GEMMs' blocks walked in groups of 8 activation
# tiles (`TileOrigin`, qk-new) against the launch order as it is (qk-base,
# 4ef4656), and qk-win (qk-new with the producers' constant windows also on
# rows of at most 64 groups without zero points: a probe). First the int4
# linear GPU tests of the new build; then bf16 v12/v13 at large M, two
# rounds, the three builds interleaved case by case.
cd .carry && rm -rf tests && tar xJf t.tar.xz && for b in base new win; do xz -dc qk-$b.xz > qk-$b && chmod +x qk-$b; done && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-A.txt
REQUIRE_GPU=1 timeout 150 ./tests/int4_linear > $L/tests-int4_linear-A.log 2>&1; echo "int4_linear exit $?" | tee -a $L/tests-A.log
grep -E "FAILED|failed|panicked|test result" $L/tests-int4_linear-A.log | tail -3 | tee -a $L/tests-A.log
date -u >> $L/device-A.txt
for round in 1 2; do for f in "1024x4096x4096 _bf16 v13" "1024x11008x4096 _bf16 v13" "1024x28672x8192 _bf16 v1" "1024x8192x28672 _bf16 v13" "256x28672x8192 _bf16 v13" "128x28672x8192 _bf16 v13" "8192x11008x4096 _bf16 v13" "8192x28672x8192 _bf16 v13" "8192x8192x28672 _bf16 v13"; do for b in base new win; do
  echo "### round $round $b $f" >> $L/ab-A.log
  timeout 60 ./qk-$b bench --kernel "int4_linear $f" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep "graph cold" | grep -v "v1[01]_\|v7_\|v6_" >> $L/ab-A.log
done; done; date -u >> $L/device-A.txt; done
