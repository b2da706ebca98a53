cd .carry && L=$OUT
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for v in pb2 none pb1 pb4 pb2; do
  echo "=== $v"
  ./variants/qk-$v bench --kernel "v5_m8_g128_bf16 1x sym" --out /tmp/p 2>&1 | grep "^\[" | sed -E 's/^\[[ 0-9.]+s\] //; s/ graph cold,.*//'
  ./variants/qk-$v bench --kernel "v6_m16_g128_bf16 16x sym" --out /tmp/p 2>&1 | grep "^\[" | grep -E "28672" | sed -E 's/^\[[ 0-9.]+s\] //; s/ graph cold,.*//'
done 2>&1 | tee $L/prefetch-ab.log
