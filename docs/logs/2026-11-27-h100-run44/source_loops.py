#!/usr/bin/env python3
# Warp-stall samples and instructions executed in each of the hottest
# loops (a backward branch and its target) of one kernel's `ncu --page
# source --print-source sass --csv` listing, as run 44's PERF section
# quotes them:  python3 source_loops.py ncu-source-D.csv.gz
import csv,gzip,re,sys,collections
rows=[]
with gzip.open(sys.argv[1],'rt') as f:
    lines=[l for l in f if l.startswith('"0x') or l.startswith('"Address"')]
r=csv.reader(lines)
hdr=next(r)
for row in r:
    d=dict(zip(hdr,row)); d['addr']=int(d['Address'],16); rows.append(d)
idx={d['addr']:i for i,d in enumerate(rows)}
num=lambda x: int(x.replace(',','')) if x not in ('-','') else 0
loops=[]
for i,d in enumerate(rows):
    m=re.search(r'\bBRA\b.*?(0x[0-9a-f]+)\s*$',d['Source'].strip())
    if m:
        t=int(m.group(1),16)
        # targets may be relative to function start
        base=rows[0]['addr']
        cand=[t, base+t]
        for tt in cand:
            if tt in idx and tt<d['addr']:
                loops.append((idx[tt],i))
def summarize(a,b,label):
    seg=rows[a:b+1]
    samp=sum(num(x['Warp Stall Sampling (All Samples)']) for x in seg)
    ex=sum(num(x['Instructions Executed']) for x in seg)
    st=collections.Counter()
    for x in seg:
        for k in hdr:
            if k.startswith('stall_') and 'Not Issued' not in k: st[k]+=num(x[k])
    print(f"{label}: {b-a+1} instr, executed {ex}, samples {samp}")
    for k,v in st.most_common(8): print(f"   {k} {v} ({100*v/max(samp,1):.0f}%)")
tot=sum(num(x['Warp Stall Sampling (All Samples)']) for x in rows)
print("total samples", tot, "instructions", len(rows))
seen=set()
for a,b in sorted(loops,key=lambda ab: -sum(num(x['Instructions Executed']) for x in rows[ab[0]:ab[1]+1]))[:8]:
    seg=rows[a:b+1]
    kind=[k for k,p in (("HGMMA","HGMMA"),("UTMALDG","UTMALDG"),("LDGSTS","LDGSTS"),("SYNCS","SYNCS")) if any(p in x['Source'] for x in seg)]
    summarize(a,b,f"loop {hex(rows[a]['addr']-rows[0]['addr'])}-{hex(rows[b]['addr']-rows[0]['addr'])} {kind}")
