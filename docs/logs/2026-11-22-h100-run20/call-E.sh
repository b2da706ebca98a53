cd .carry && tar xJf bins.tar.xz && L=$OUT
date -u
./quant-kernels bench --sweep --kernel "v5_m8_g128_bf16 1x28672x8192 sym g128" --json /tmp/a.json --png /tmp/a.png > $L/sweep-v5-E.log 2>&1
grep -E "^\[" $L/sweep-v5-E.log | grep -v asym | sed -E 's/^\[[ 0-9.]+s\] //'
N=/usr/local/cuda/bin/ncu; M="--clock-control none --set full --metrics lts__t_bytes.sum,l1tex__t_bytes.sum,dram__bytes_read.sum"
timeout 150 $N $M -k regex:int4_linear_v5_m8_g128_bf16 -c 1 ./quant-kernels bench --kernel "v5_m8_g128_bf16 1x28672x8192 sym" --iters 1 > $L/ncu-v5-E.log 2>&1
grep -E "Duration|DRAM Throughput|L2 Cache Throughput|L1/TEX Hit|Issue Slots Busy|Registers Per|Achieved Occupancy|lts__t_bytes.sum|l1tex__t_bytes.sum|dram__bytes_read.sum|Warp Cycles Per Issued|SM Active Cycles|Elapsed Cycles|Block Size|Grid Size" $L/ncu-v5-E.log
