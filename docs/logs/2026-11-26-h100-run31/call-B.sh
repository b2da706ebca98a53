#!/bin/bash
# Run 31 call B (call A's build, b1ff571): each kernel with programmatic
# dependent launch (the default) and --serialized, interleaved in one
# sitting: the elementwise report (every version, size and type), the
# library's int4 picks at M = 1 (v17), 16 (v17, v23) and 64 (v19) in bf16;
# then PyTorch's elementwise peers and their comparison with both reports.
cd .carry && ( [ -d tests ] || tar xJf t.tar.xz ) && L=/tmp/logs && mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-B.txt
for mode in programmatic serialized; do
  flag=$([ $mode = serialized ] && echo --serialized)
  for k in add_mul_exp quantize_int8; do
    timeout 60 ./quant-kernels bench --kernel $k $flag --json $L/report-B-$k-$mode.json --png /tmp/p.png >> $L/bench-B-elementwise-$mode.log 2>&1; echo "$k $mode exit $?"
  done
  python3 - $L/report-B-add_mul_exp-$mode.json $L/report-B-quantize_int8-$mode.json $L/report-B-elementwise-$mode.json <<'PY'
import json, sys
a, q = (json.load(open(p)) for p in sys.argv[1:3])
a["rows"] += [r for r in q["rows"] if r["op"] == "quantize_int8"]
json.dump(a, open(sys.argv[3], "w"))
PY
done
for k in "1x bf16 v17" "16x bf16 v17" "16x bf16 v23" "64x bf16 v19"; do
  for mode in programmatic serialized; do
    flag=$([ $mode = serialized ] && echo --serialized)
    echo "### $mode $k" >> $L/ab-B.log
    timeout 60 ./quant-kernels bench --kernel "int4_linear $k" $flag --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold|^Launch|enqueue" >> $L/ab-B.log
  done
done
python3 - <<'PY'
import re
rows = {}
for line in open("/tmp/logs/ab-B.log"):
    if line.startswith("###"):
        mode = line.split()[1]
    else:
        m = re.search(r"\] (\S+) .*? (\d+x\d+x\d+) (sym|asym) g128: ([\d.]+) us graph cold", line)
        if m:
            key = (m.group(2), m.group(3))
            best = rows.setdefault(key, {})
            t = float(m.group(4))
            if t < best.get(mode, (1e9, ""))[0]:
                best[mode] = (t, m.group(1))
print(f"{'shape':18} {'zeros':5} {'programmatic':>12} {'serialized':>10}  ratio  kernel (fastest of each)")
for (shape, mode), v in rows.items():
    p, s = v.get("programmatic", (0, "")), v.get("serialized", (0, ""))
    print(f"{shape:18} {mode:5} {p[0]:12.2f} {s[0]:10.2f} {s[0] / p[0] if p[0] else 0:6.3f}  {p[1]}")
PY
timeout 120 python3 torch_peers.py --only elementwise --json $L/torch-B-elementwise.json > $L/peers-B-elementwise.log 2>&1; echo "peers exit $?"; tail -1 $L/peers-B-elementwise.log
for mode in programmatic serialized; do
  python3 compare.py $L/report-B-elementwise-$mode.json $L/torch-B-elementwise.json --markdown $L/compare-B-elementwise-$mode.md > /dev/null 2>&1
done
echo "## programmatic"; grep -E "^\| (f32|f16|bf16) " $L/compare-B-elementwise-programmatic.md | cut -d'|' -f2-4,6-9
echo "## serialized"; grep -E "^\| (f32|f16|bf16) " $L/compare-B-elementwise-serialized.md | cut -d'|' -f2-4,8
rm -f $L/report-B-add_mul_exp-* $L/report-B-quantize_int8-*
tar czf $OUT/logs-B.tar.gz -C $L .
