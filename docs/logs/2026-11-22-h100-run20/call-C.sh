cd .carry && tar xJf bins.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/tests.log
for t in int4_weights int4_linear raw_launch graph ptx; do tests/$t >> $L/tests.log 2>&1; done; grep -E "test result|FAILED|panicked" $L/tests.log
STEPS=sanitizer SANITIZE_RUNS="memcheck:int4_linear synccheck:int4_linear memcheck:raw_launch" timeout 200 ./gpu-check.sh /tmp/san > /dev/null 2>&1; cp /tmp/san/checks.log $L/sanitizer.log; grep -E "^--|SUMMARY|test result|exit" $L/sanitizer.log
for s in 4096x4096 11008x4096 4096x11008 28672x8192 8192x28672; do
  ./quant-kernels bench --kernel "v5_m8_g128 1x$s sym g128" --json /tmp/a.json --png /tmp/a.png
  ./quant-kernels bench --kernel "v6_m16_g128 16x$s sym g128" --json /tmp/a.json --png /tmp/a.png
done > $L/bench-gemv.log 2>&1
./quant-kernels bench --kernel "v13 x28672x8192 sym g128" --json /tmp/a.json --png /tmp/a.png > $L/bench-v13.log 2>&1
./quant-kernels bench --kernel "v7 1024x28672x8192 sym g128" --json /tmp/a.json --png /tmp/a.png >> $L/bench-v13.log 2>&1
grep -hE "^\[" $L/bench-gemv.log $L/bench-v13.log | grep -v asym | sed -E 's/^\[[ 0-9.]+s\] //; s/ graph cold//'
