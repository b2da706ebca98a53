cd .carry && L=$OUT
date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
for s in 1x28672x8192 1x8192x28672 1x4096x4096 1x11008x4096 1x4096x11008; do
  ./quant-kernels bench --sweep --kernel "$s sym g128" --json /tmp/s.json --png /tmp/s.png > $L/probe-$s.log 2>&1
  echo "=== $s"; grep -E "cuMemcpy|_v3_m8|_v4_m8|_v5_m8" $L/probe-$s.log | grep -v asym | sed -E 's/^\[[ 0-9.]+s\] //; s/ graph cold.*//; s/ sym g128//'
done
