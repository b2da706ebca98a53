#!/bin/bash
# Run 31 call D (call A's build, b1ff571, programmatic launches on): the
# library's M = 16 pick where k is past V23_MAX_K. Versions 17, 22 and 23
# at 16 x 8192 x 28672 in bf16 and f16, three rounds interleaved; the
# fastest block or split of each version, sym and asym, per round.
cd .carry && ( [ -d tests ] || tar xJf t.tar.xz ) && L=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/device-D.txt
for round in 1 2 3; do for d in bf16 f16; do for v in v17 v22 v23; do
  echo "### round $round $d $v" >> $L/ab-D.log
  timeout 60 ./quant-kernels bench --kernel "int4_linear 16x8192x28672 $d $v" --json /tmp/r.json --png /tmp/p.png 2>&1 | grep -E "graph cold" >> $L/ab-D.log
done; done; done
python3 - "$L/ab-D.log" <<'PY'
import re, sys
best = {}
for line in open(sys.argv[1]):
    if line.startswith("###"):
        _, _, rnd, d, v = line.split()
    else:
        m = re.search(r"\] (\S+) (.*?) 16x8192x28672 (sym|asym) g128: ([\d.]+) us graph cold", line)
        if m:
            key = (d, m.group(3), v, rnd)
            t = float(m.group(4))
            if t < best.get(key, (1e9,))[0]:
                best[key] = (t, m.group(2))
for d in ("bf16", "f16"):
    for mode in ("sym", "asym"):
        for v in ("v17", "v22", "v23"):
            runs = [best.get((d, mode, v, r), (0, "-")) for r in "123"]
            print(f"{d:5} {mode:5} {v}: " + "  ".join(f"{t:7.2f} ({label})" for t, label in runs))
PY
