#!/bin/bash
# Run 27 call F: at G = 128 versions 19 and 22 store and read each step's
# constants once (G, the working tree) against the final build of call E
# (base, 434ddc5). G's int4 linear and raw-launch GPU tests, the benches,
# alternating, then compute-sanitizer memcheck and synccheck of the whole
# int4 linear binary and racecheck of its tiled-GEMM test.
cd .carry && tar xJf t.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-F.txt
for t in int4_linear raw_launch; do echo "=== tests/$t (G)" >> $L/tests-F.log; timeout 150 tests/$t >> $L/tests-F.log 2>&1; echo "$t exit $?"; done
grep -hE "^===|test result|FAILED|panicked" $L/tests-F.log | head -20
run() { echo "=== $1 $2" >> $L/bench-F.log; timeout 100 ./qk-$1 bench --kernel "$2" --json /tmp/r.json --png /tmp/r.png >> $L/bench-F.log 2>&1; echo "$1 $2 exit $?"; }
for b in base G; do run $b "v22 16x28672x8192 bf16"; done
for b in base G; do run $b "v22 split 16x bf16"; run $b "v19 64x28672x8192 sym bf16"; done
grep -E "^===|graph cold" $L/bench-F.log | grep -v memcpy | sed 's/^\[ *[0-9.]* s\] //' | cut -c1-100
for tool in memcheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 99 tests/int4_linear --test-threads=1 > $L/sanitizer-$tool-F.log 2>&1; echo "$tool exit $?"
  grep -E "ERROR SUMMARY|test result" $L/sanitizer-$tool-F.log
done
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 99 tests/int4_linear gemm_tiles --test-threads=1 > $L/sanitizer-racecheck-F.log 2>&1; echo "racecheck exit $?"
grep -E "RACECHECK SUMMARY|test result" $L/sanitizer-racecheck-F.log
