#!/usr/bin/env python3
"""scripts/bench-profile.py LOG SYMS [TOP] [ENTRY] — guest instructions per
kernel function from QEMU's "-d in_asm,exec,nochain" log: each TB execution
("Trace" line) weighs the instructions of its block (from its "IN:" dump).
SYMS is "addr type name" lines (nm, /proc/kallsyms).  ENTRY, a function
entered once per page fault, divides the totals into per-fault figures."""
import sys, re, bisect, collections
log, symfile = sys.argv[1], sys.argv[2]
syms = []
for l in open(symfile):
    p = l.split()
    if len(p) >= 3 and p[1] in "tTwW":
        syms.append((int(p[0], 16), p[2]))
syms.sort(); addrs = [a for a, _ in syms]
def fn(pc):
    if pc < 0xffff800000000000: return "[user]"
    i = bisect.bisect_right(addrs, pc) - 1
    return syms[i][1] if i >= 0 else "?"
ninsn = {}; counts = collections.Counter()
cur = None
tr = re.compile(r"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")
for l in open(log, errors="replace"):
    m = tr.match(l)
    if m:
        counts[int(m.group(1), 16)] += 1; continue
    if l.startswith("IN:"): cur = None; continue
    m = re.match(r"^0x([0-9a-f]{16}):\s+(.*)$", l)
    if m:
        a = int(m.group(1), 16)
        if cur is None: cur = a; ninsn[cur] = 0
        # A long instruction's bytes go on over a second line: not one more.
        if not re.fullmatch(r"([0-9a-f]{2} ?)+", m.group(2).strip()):
            ninsn[cur] += 1
    elif not l.strip(): cur = None
per = collections.Counter(); unknown = 0; tot = 0
entry = sys.argv[4] if len(sys.argv) > 4 else None
faults = sum(c for pc, c in counts.items() if entry and fn(pc) == entry and
             any(a == pc and s == entry for a, s in syms))
for pc, c in counts.items():
    n = ninsn.get(pc)
    if n is None: unknown += c; n = 1
    per[fn(pc)] += c * n; tot += c * n
print(f"# TB executions {sum(counts.values())}, instructions {tot}, "
      f"TBs never dumped (counted as 1) {unknown}, faults ({entry}) {faults}")
for f, c in per.most_common(int(sys.argv[3]) if len(sys.argv) > 3 else 40):
    pf = f" {c / faults:9.1f}/fault" if faults else ""
    print(f"{100 * c / tot:6.2f}% {c:10d}{pf}  {f}")
