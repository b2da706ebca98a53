cd .carry && L=$OUT
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export REQUIRE_GPU=1
for s in 1x4096x4096 1x11008x4096 1x4096x11008 1x28672x8192 1x8192x28672; do
  ./quant-kernels-ring2 bench --kernel "g128_bf16 $s" > $L/bench-ring2-$s.log 2>&1
  grep -E "^\[" $L/bench-ring2-$s.log | sed -E 's/^\[[ 0-9.]+s\] //' | grep -v asym | grep -E "v5_m8|v14" 
done
