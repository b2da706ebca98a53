#!/usr/bin/env python3
"""Splits ncu's source-level sampling of one producer-consumer kernel by role.

Input: the CSV of `ncu --import REPORT --page source --csv --print-source
sass` for a report taken with `--section SourceCounters` (plain or
gzipped). The SASS of versions 12, 13, 19 and 22-24 changes each warp's
register budget once, with `setmaxnreg` (`USETMAXREG`): the code after
the first such instruction is one role's branch, after the second the
other's. This prints, for the prologue and each branch (in address
order, named by their `USETMAXREG`), the share of the warp samples, the
main stall reasons of those samples, and the mix of executed
instructions by opcode; then the most sampled instructions with their
three main reasons.

Usage: scripts/ncu_source_split.py CSV [TOP]
"""

import collections
import csv
import gzip
import sys


def rows_of(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        rows = list(csv.reader(f))
    # Line 0 names the kernel; line 1 is the header.
    header = rows[1]
    return rows[0], {name: i for i, name in enumerate(header)}, header, rows[2:]


def count(row, column):
    value = row[column]
    return int(value) if value not in ("", "-") else 0


def opcode(source):
    words = source.split()
    word = words[1] if words[0].startswith("@") else words[0]
    return word.split(".")[0]


def main():
    path = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    kernel, ix, header, rows = rows_of(path)
    reasons = [h for h in header if h.startswith("stall_") and "(Not Issued)" not in h]
    samples_col, executed_col = ix["# Samples"], ix["Instructions Executed"]
    regions = [{"name": "prologue", "samples": 0, "reasons": collections.Counter(), "mix": collections.Counter()}]
    for row in rows:
        source = row[ix["Source"]].strip()
        if "USETMAXREG" in source:
            regions.append({"name": source, "samples": 0, "reasons": collections.Counter(), "mix": collections.Counter()})
        region = regions[-1]
        region["samples"] += count(row, samples_col)
        region["mix"][opcode(source)] += count(row, executed_col)
        for reason in reasons:
            region["reasons"][reason[len("stall_"):]] += count(row, ix[reason])
    total = sum(r["samples"] for r in regions) or 1
    print(",".join(kernel).strip(","))
    print(f"{total} warp samples")
    for region in regions:
        samples = region["samples"] or 1
        executed = sum(region["mix"].values()) or 1
        print(f"\n{region['name']}: {100 * region['samples'] / total:.1f}% of the samples, "
              f"{sum(region['mix'].values())} warp instructions executed")
        print("  stalls: " + ", ".join(f"{name} {100 * n / samples:.0f}%"
                                       for name, n in region["reasons"].most_common(8) if n))
        print("  mix:    " + ", ".join(f"{op} {100 * n / executed:.1f}%"
                                       for op, n in region["mix"].most_common(12) if n))
    print(f"\nthe {top} most sampled instructions (samples, address, SASS, main reasons):")
    for row in sorted(rows, key=lambda r: -count(r, samples_col))[:top]:
        main_reasons = sorted(((count(row, ix[r]), r[len("stall_"):]) for r in reasons), reverse=True)[:3]
        print(f"{count(row, samples_col):6d} {row[ix['Address']][-5:]} {row[ix['Source']].strip()[:56]:56s} "
              + ", ".join(f"{name} {n}" for n, name in main_reasons if n))


if __name__ == "__main__":
    main()
