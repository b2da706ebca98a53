cd .carry && tar xJf bins.tar.xz && L=$OUT
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
N=/usr/local/cuda/bin/ncu
M="--clock-control none --set full --metrics lts__t_bytes.sum,l1tex__t_bytes.sum,dram__bytes_read.sum"
for k in "v6_m16_g128_bf16 16x8192x28672 sym" "v6_m16_g128_bf16 16x28672x8192 sym" "v5_m8_g128_bf16 1x8192x28672 sym" "v5_m8_g128_bf16 1x28672x8192 sym"; do
  name=int4_linear_${k%% *}; echo "=== $k"; $N $M -k regex:$name -c 1 ./quant-kernels bench --kernel "$k" --iters 1 2>&1 | grep -v "^\[" ; done > $L/ncu-int4.log 2>&1
grep -E "^===|Duration|DRAM Throughput|L2 Cache Throughput|L1/TEX Hit|L2 Hit|Memory Throughput|Compute \(SM\)|Issue Slots Busy|Registers Per|Achieved Occupancy|lts__t_bytes.sum|l1tex__t_bytes.sum|dram__bytes_read.sum|Warp Cycles Per Issued|Block Size|Grid Size" $L/ncu-int4.log
./quant-kernels bench --kernel "16x8192x28672 sym g128" --sweep --json /tmp/s.json --png /tmp/s.png > $L/sweep-int4.log 2>&1
./quant-kernels bench --kernel "16x28672x8192 sym g128" --sweep --json /tmp/s.json --png /tmp/s.png >> $L/sweep-int4.log 2>&1
grep -E "^\[" $L/sweep-int4.log | sed -E 's/^\[[ 0-9.]+s\] //; s/ graph cold.*//' | sort -t: -k2 -n | head -40
