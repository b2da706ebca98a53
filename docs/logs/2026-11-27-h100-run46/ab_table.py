#!/usr/bin/env python3
# Mean of each build's rounds for each case of an A/B log (`### build
# filter` headers, then the report's case lines), and each build's change
# against the first:  python3 ab_table.py ab-C.log base fill fill1 fill2
import re, sys, collections
log, builds = sys.argv[1], sys.argv[2:]
times = collections.defaultdict(lambda: collections.defaultdict(list))
build = None
for line in open(log):
    header = re.match(r'### (\w+) ', line)
    if header:
        build = header.group(1)
        continue
    case = re.search(r'\] \S+ (v\d+(?: split \d+)?) b\d+ (\S+) (sym|asym) g\d+: ([\d.]+) us', line)
    if case:
        times[(case.group(2), case.group(1), case.group(3))][build].append(float(case.group(4)))
mean = lambda v: sum(v) / len(v)
print('| case | ' + ' | '.join(builds) + ' |')
print('|---|' + '---:|' * len(builds))
for key in sorted(times, key=lambda k: (int(k[0].split('x')[0]), k)):
    row = times[key]
    if not all(row[b] for b in builds):
        continue
    base = mean(row[builds[0]])
    cells = [', '.join(f'{t:.2f}' for t in row[builds[0]])]
    cells += [', '.join(f'{t:.2f}' for t in row[b]) + f' ({100 * (mean(row[b]) / base - 1):+.1f}%)' for b in builds[1:]]
    print(f'| {key[0]} {key[1]} {key[2]} | ' + ' | '.join(cells) + ' |')
