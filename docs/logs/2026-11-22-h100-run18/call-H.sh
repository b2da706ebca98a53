cd .carry && L=$OUT
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for v in base plainstore plainload base; do
  echo "=== $v"
  timeout 100 ./variants/qk-$v bench --kernel "v3 M" --out /tmp/p 2>&1 | grep "^\[" | sed -E 's/^\[[ 0-9.]+s\] //; s/ graph cold,.*//'
done 2>&1 | tee $L/cache-hints-ab.log
