cd .carry && tar xJf bins.tar.xz && L=$OUT
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export REQUIRE_GPU=1
for s in 1x4096x4096 1x11008x4096 1x4096x11008 1x28672x8192 1x8192x28672; do
  ./quant-kernels bench --kernel "g128 $s" > $L/bench-$s.log 2>&1
  grep -E "^\[" $L/bench-$s.log | sed -E 's/^\[[ 0-9.]+s\] //' | grep -v asym | grep -E "v5_m8|v14|cuMemcpy" | head -8
done
timeout 200 ./tests/int4_linear > $L/tests-int4.log 2>&1; echo "int4 tests rc $?"; grep -E "test result|FAILED|failed" $L/tests-int4.log | head
for tool in memcheck racecheck synccheck; do
  timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool $tool ./quant-kernels bench --kernel "v14 1x4096x4096" --iters 1 > $L/san-$tool.log 2>&1; echo "$tool rc $?"; tail -1 $L/san-$tool.log
done
N=/usr/local/cuda/bin/ncu
M="--clock-control none --set full --metrics lts__t_bytes.sum,l1tex__t_bytes.sum,dram__bytes_read.sum"
for k in "v14_g128_bf16 1x28672x8192 sym" "v14_g128_bf16 1x4096x4096 sym"; do
  echo "=== $k"; timeout 100 $N $M -k regex:int4_linear_v14_g128_bf16 -c 1 ./quant-kernels bench --kernel "$k" --iters 1 2>&1 | grep -v "^\[" ; done > $L/ncu-v14.log 2>&1
grep -E "^===|Duration|DRAM Throughput|L2 Cache Throughput|Issue Slots Busy|Registers Per|Achieved Occupancy|dram__bytes_read.sum|Warp Cycles Per Issued|Stall|Local" $L/ncu-v14.log | head -40
