cd .carry && tar xJf bins.tar.xz && L=$OUT
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export REQUIRE_GPU=1
for s in 1x4096x4096 1x11008x4096 1x4096x11008 1x28672x8192 1x8192x28672; do
  ./quant-kernels bench --kernel "g128_bf16 $s" > $L/bench-$s.log 2>&1
  grep -E "^\[" $L/bench-$s.log | sed -E 's/^\[[ 0-9.]+s\] //' | grep -v asym | head -8
done
timeout 200 ./tests/int4_linear > $L/tests-int4.log 2>&1; echo "int4 tests rc $?"; grep -E "test result|FAILED|failed" $L/tests-int4.log | head
for tool in memcheck racecheck synccheck; do
  timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool $tool ./quant-kernels bench --kernel "v14 1x4096x4096" --iters 1 > $L/san-$tool.log 2>&1; echo "$tool rc $?"; tail -2 $L/san-$tool.log
done
