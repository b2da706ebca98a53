cd .carry && tar xJf bins.tar.xz && L=$OUT
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 430 ./quant-kernels bench --kernel int4_linear --json $L/report.json --png $L/report.png > $L/bench.log 2>&1; echo "bench exit $?"; tail -2 $L/bench.log
timeout 150 python3 torch_peers.py --only linear --json $L/torch.json > $L/peers.log 2>&1; echo "peers exit $?"; tail -2 $L/peers.log
python3 compare.py $L/report.json $L/torch.json --markdown $L/compare.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare.md | head -60
