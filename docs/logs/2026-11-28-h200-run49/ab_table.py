#!/usr/bin/env python3
"""Tables an A/B log of `quant-kernels bench` runs (the `### build filter`
headers of the run 49 call scripts): per case (shape and mode), each
build's fastest block in each round, in µs, rounds comma-separated.

usage: ab_table.py LOG [FILTER_SUBSTRING]"""
import re, sys
from collections import defaultdict

log, want = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "")
runs = defaultdict(list)  # (build, filter) -> [ {case: best} per round ]
build = filt = None
for line in open(log):
    head = re.match(r"### (\S+) (.*) \(at \d+ s\)", line)
    if head:
        build, filt = head.groups()
        runs[(build, filt)].append({})
        continue
    row = re.search(r"\] (\S+) .* (\d+x\d+x\d+) (a?sym) g\d+: ([\d.]+) us graph cold", line)
    if row and build:
        case = f"{row[2]} {row[3]}"
        best = runs[(build, filt)][-1]
        best[case] = min(best.get(case, 1e9), float(row[4]))
builds = []
for b, f in runs:
    if want in f and b not in builds:
        builds.append(b)
cases = []
for (b, f), rounds in runs.items():
    if want in f:
        for r in rounds:
            cases += [c for c in r if c not in cases]
print("| case | " + " | ".join(builds) + " |")
print("|---|" + "---:|" * len(builds))
for c in cases:
    cells = []
    for b in builds:
        vals = [r[c] for (bb, f), rounds in runs.items() if bb == b and want in f for r in rounds if c in r]
        cells.append(", ".join(f"{v:.2f}" for v in vals) or "-")
    print(f"| {c} | " + " | ".join(cells) + " |")
