#!/usr/bin/env python3
"""Run 43 call D: reads the outputs that probe-timeline.patch's kernels wrote
(one file a checked launch, `dumps-D.tar.gz`) and prints, per launch, when
the groups started and ended (global ns from the first start), the SM
cycles within a group (converted to ns by the group's own ns per cycle) to
the grid wait, the first batch's products, the loop's end and the end, and
how the end depends on the groups an SM holds. Usage: timeline.py FILE..."""
import statistics as st
import struct
import sys
from collections import defaultdict

MARKER = 0x7E570000


def records(path):
    """Each group's 8 words: start, end (ns), cycles to 4 points, SM, marker."""
    data = open(path, 'rb').read()
    words = struct.unpack('<%dI' % (len(data) // 4), data)
    return [words[i:i + 8] for i in range(0, len(words) - 7, 8) if words[i + 7] == MARKER]


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


for path in sys.argv[1:]:
    groups = records(path)
    if not groups:
        print(path, 'no records')
        continue
    base = min(r[0] for r in groups)
    start = [(r[0] - base) & 0xFFFFFFFF for r in groups]
    end = [(r[1] - base) & 0xFFFFFFFF for r in groups]
    ns_per_cycle = st.median(((r[1] - r[0]) & 0xFFFFFFFF) / max(r[5], 1) for r in groups)
    wait, first, loop, whole = ([r[i] * ns_per_cycle for r in groups] for i in (2, 3, 4, 5))
    print(f"{path}: {len(groups)} groups on {len(set(r[6] for r in groups))} SMs, {1 / ns_per_cycle:.2f} GHz")
    print(f"   start p50 {pct(start, .5):6.0f} max {max(start):6.0f}")
    print(f"   end   min {min(end):6.0f} p10 {pct(end, .1):6.0f} p50 {pct(end, .5):6.0f} "
          f"p90 {pct(end, .9):6.0f} max {max(end):6.0f}")
    print(f"   in a group: grid wait p50 {pct(wait, .5):5.0f}; first batch p50 {pct(first, .5):5.0f} "
          f"p90 {pct(first, .9):5.0f}; loop end p50 {pct(loop, .5):6.0f}; end p50 {pct(whole, .5):6.0f}")
    by_sm = defaultdict(list)
    for r, e in zip(groups, end):
        by_sm[r[6]].append(e)
    by_count = defaultdict(list)
    for ends in by_sm.values():
        by_count[len(ends)].append(max(ends))
    for count, lasts in sorted(by_count.items()):
        print(f"   {len(lasts):3d} SMs with {count:2d} groups: last end p50 {st.median(lasts):6.0f} max {max(lasts):6.0f}")
