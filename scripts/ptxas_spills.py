#!/usr/bin/env python3
"""Fails when ptxas spills more in an entry point than the budget allows.

    ptxas -arch=ARCH -v KERNELS.ptx -o /dev/null 2>&1 \
        | python3 scripts/ptxas_spills.py ARCH scripts/ptxas-spill-budget.txt

Reads `ptxas -v`'s report on standard input. The budget file holds one
line per entry point allowed to spill, `ARCH ENTRY STORE_BYTES
LOAD_BYTES` (`#` starts a comment); every other entry point of ARCH must
spill nothing. An entry point over its budget fails the check; one under
it is printed, so that the budget can be lowered with the change that
freed the registers.

Why: spills are a slowdown CI can see without a GPU. Run 38's paired
stores spilled 40-64 bytes in versions 10, 12 and 13 (split calls 4-11%
slower), and run 39's struct for split-K's output 144-260 bytes in the
split-K entry points (version 13's 8% slower); both were found only on
the device (docs/PERF.md).
"""

import re
import sys

ENTRY = re.compile(r"Compiling entry function '(\w+)' for '(\w+)'")
SPILLS = re.compile(r"(\d+) bytes spill stores, (\d+) bytes spill loads")


def measured(report):
    """(entry, (store bytes, load bytes)) for each entry point in the report."""
    entry = None
    for line in report:
        found = ENTRY.search(line)
        if found:
            entry = found.group(1)
            continue
        found = SPILLS.search(line)
        if found and entry:
            yield entry, (int(found.group(1)), int(found.group(2)))
            entry = None


def budget(path, arch):
    """{entry: (store bytes, load bytes)} of `arch` in the budget file."""
    allowed = {}
    for line in open(path):
        fields = line.split("#", 1)[0].split()
        if fields and fields[0] == arch:
            allowed[fields[1]] = (int(fields[2]), int(fields[3]))
    return allowed


def main():
    arch, path = sys.argv[1], sys.argv[2]
    allowed = budget(path, arch)
    over, entries = [], 0
    for entry, spills in measured(sys.stdin):
        entries += 1
        limit = allowed.pop(entry, (0, 0))
        if spills[0] > limit[0] or spills[1] > limit[1]:
            over.append(f"{entry}: {spills[0]} B stored, {spills[1]} B loaded; budget {limit[0]}, {limit[1]}")
        elif spills != limit:
            print(f"under budget, lower it: {arch} {entry} {spills[0]} {spills[1]} (budget {limit[0]} {limit[1]})")
    if entries == 0:
        sys.exit(f"no entry points in ptxas's report for {arch}")
    for entry in allowed:
        print(f"in the budget but not in the PTX: {arch} {entry}")
    for line in over:
        print(f"SPILLS OVER BUDGET ({arch}) {line}")
    print(f"{arch}: {entries} entry points, {len(over)} over their spill budget")
    sys.exit(1 if over else 0)


if __name__ == "__main__":
    main()
