cd .carry && L=$OUT
date -u
for s in 1x28672x8192 1x8192x28672 1x4096x4096 1x11008x4096 1x4096x11008; do
  ./quant-kernels bench --sweep --kernel "$s sym g128" --json /tmp/s.json --png /tmp/s.png > $L/probe2-$s.log 2>&1
  echo "=== $s"; grep -E "^\[" $L/probe2-$s.log | grep -E "_v3_m8|_v4_m8|_v5_m8" | grep -v asym | sed -E 's/^\[[ 0-9.]+s\] //; s/ graph cold.*//; s/ sym g128//; s/int4_linear_//; s/ 1x[0-9x]+//' | tr '\n' ';'; echo
done
