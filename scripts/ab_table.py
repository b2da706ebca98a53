#!/usr/bin/env python3
"""Tables an A/B log: the output of `quant-kernels bench` runs under
`### BUILD FILTER (at N s)` headers, as `scripts/device-ab.sh` writes
(and run 49's call scripts did). One row a case (the shape or size,
mode and type), one column a build, each cell the build's fastest
kernel of that case in each round (cold, graph-timed, µs), the rounds
comma-separated.
For the int4 layer "fastest" is over the kernels and blocks the filter
ran: the library's block among them, where the filter names a version.

usage: scripts/ab_table.py LOG [FILTER_SUBSTRING]
  FILTER_SUBSTRING keeps the runs whose filter contains it."""
import re
import sys
from collections import defaultdict

HEADER = re.compile(r"### (\S+) (.*) \(at \d+ s\)")
# int4 rows: "... 1x28672x8192 sym g128: 40.05 us graph cold"; elementwise
# rows: "quantize_int8_v2_f16 v2 b256 20M: 16.03 us graph cold".
LINEAR = re.compile(r"\] (\S+) .* (\d+x\d+x\d+) (a?sym) g(\d+): ([\d.]+) us graph cold")
ELEMENTWISE = re.compile(r"\] ((?:add_mul_exp|quantize_int8)\S*?)_(f32|f16|bf16) .* (\d+[KM]): ([\d.]+) us graph cold")


def case_of(line):
    """(case, µs) of a timed row, or None."""
    row = LINEAR.search(line)
    if row:
        # The type from the kernel's name: a filter may run more than one.
        dtype = row[1].rsplit("_", 1)[-1]
        return f"{row[2]} {row[3]} g{row[4]} {dtype}", float(row[5])
    row = ELEMENTWISE.search(line)
    if row:
        op = "quantize_int8" if row[1].startswith("quantize") else "add_mul_exp"
        return f"{op} {row[2]} {row[3]}", float(row[4])
    return None


def main():
    log, want = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "")
    rounds = defaultdict(list)  # build -> [{case: fastest µs} for each run]
    builds, cases, build = [], [], None
    for line in open(log):
        head = HEADER.match(line)
        if head:
            build = head[1] if want in head[2] else None
            if build:
                rounds[build].append({})
                builds += [build] if build not in builds else []
            continue
        timed = case_of(line) if build else None
        if timed:
            case, us = timed
            fastest = rounds[build][-1]
            fastest[case] = min(fastest.get(case, us), us)
            cases += [case] if case not in cases else []
    print("| case | " + " | ".join(builds) + " |")
    print("|---|" + "---:|" * len(builds))
    for case in cases:
        cells = [", ".join(f"{run[case]:.2f}" for run in rounds[b] if case in run) or "-" for b in builds]
        print(f"| {case} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
