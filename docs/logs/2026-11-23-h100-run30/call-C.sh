#!/bin/bash
# Run 30 call C: what costs call B's --serialized build 1.4 µs at
# 1 x 4096 x 4096 (8.01 against run 29's 6.64): the session's starting
# build (`quant-kernels-head`, no griddepcontrol), call B's build, and call
# B's build without the L2 prefetch of the first batches before the wait
# (`quant-kernels-nopf`), each serialized and (the last two) programmatic,
# at M = 1 in bf16 on three shapes, interleaved. Then the whole int4 bf16
# report of call B's build (programmatic launches on) and PyTorch's linear
# peers in the same sitting.
cd .carry && tar xJf t.tar.xz && L=/tmp/logs && mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-C.txt
for shape in 1x4096x4096 1x4096x11008 1x11008x4096; do
  for run in "head -" "quant-kernels --serialized" "quant-kernels -" "nopf --serialized" "nopf -"; do
    b=${run%% *}; f=${run#* }; [ "$f" = - ] && f=; [ $b = quant-kernels ] || b=quant-kernels-$b
    echo "### $b $f $shape" >> $L/ab-C.log
    timeout 60 ./$b bench --kernel "int4_linear bf16 v17 $shape" $f --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "^\[.*graph cold" >> $L/ab-C.log
  done
done
python3 - <<'PY'
import re
rows = {}
for line in open("/tmp/logs/ab-C.log"):
    if line.startswith("###"):
        _, b, *rest = line.split(); shape = rest[-1]; mode = "serialized" if "--serialized" in rest else ("plain" if b.endswith("head") else "programmatic")
        key = (b, mode)
    elif "groups 1 " in line or "groups 16 " in line or "groups 8 " in line:
        m = re.search(r"(\d+x\d+x\d+) (sym|asym) g128: ([\d.]+) us", line)
        if m: rows.setdefault(key, {})[f"{m.group(1)} {m.group(2)}"] = m.group(3)
for key, values in rows.items():
    print(f"{key[0]:22} {key[1]:13}", "  ".join(f"{k} {v}" for k, v in sorted(values.items())))
PY
timeout 330 ./quant-kernels bench --kernel "int4_linear bf16" --json $L/report-C.json --png $L/report-C.png > $L/bench-C.log 2>&1; echo "bench exit $?"; tail -1 $L/bench-C.log
grep -A4 "^Launch overhead" $L/bench-C.log | cut -c1-250
timeout 110 python3 torch_peers.py --only linear --json $L/torch-C.json > $L/peers-C.log 2>&1; echo "peers exit $?"; tail -1 $L/peers-C.log
python3 compare.py $L/report-C.json $L/torch-C.json --markdown $L/compare-C.md > /dev/null 2>&1; grep -E "^\| [0-9]" $L/compare-C.md | cut -d'|' -f2-5,8,12,13
tar czf $OUT/logs-C.tar.gz -C $L .
