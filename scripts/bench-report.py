#!/usr/bin/env python3
"""scripts/bench-report.py DIR — make bench's report from DIR/runs/*.txt
(zpbench's key=value lines, one file per kernel and mode): report.md,
results.csv, faults.png, scale.png, vmas.png and smp.png (gnuplot) in DIR;
with make c2c's report in C2C_OUT (build/c2c), its per-fault tables and
c2c.png too."""
import csv
import math
import os
import shutil
import subprocess
import sys

D = sys.argv[1]
RUNS = os.path.join(D, "runs")
KERNELS = ["special", "refcount", "off", "linux"]
TITLE = {"special": "zpk special", "refcount": "zpk refcount",
         "off": "zpk off", "linux": "Linux"}
PHASES = [("read", "read fault"), ("cow", "write after read (COW from zero)"),
          ("write", "first write"), ("reread", "re-read, mapped (floor)"),
          ("fork", "fork+exit+wait, per zero-mapped page"),
          ("munmap", "munmap, per zero-mapped page"),
          ("sparse", "sparse scan read, per page")]
MODES = [("icount", "instructions per page (-icount shift=0: exact)"),
         ("free", "TSC cycles per page (free-running TCG: host time, noisy)")]


def load(name):
    fig = {}
    try:
        with open(os.path.join(RUNS, name + ".txt")) as f:
            for line in f:
                k, _, v = line.strip().partition("=")
                if k:
                    fig[k] = v
    except OSError:
        pass
    return fig


R = {(k, m): load(f"{k}-{m}") for k in KERNELS
     for m, _ in MODES + [("smp", ""), ("swap", "")]}
kernels = [k for k in KERNELS if any(R[(k, m)] for m, _ in MODES)]
smp_kernels = [k for k in KERNELS if R[(k, "smp")]]
SMP_MODES = [("procs", "processes (each its own mm: only the zero page is shared)"),
             ("threads", "threads of one process (one mm: its mmap_lock and RSS counters too)")]


def num(k, m, key):
    try:
        return float(R[(k, m)][key])
    except (KeyError, ValueError):
        return None


def fmt(v, digits=0):
    if v is None:
        return "—"
    return f"{v:,.{digits}f}"


def ratio(a, b):
    return None if a is None or not b else a / b


out = []
w = out.append
linux = R[("linux", "icount")]
w("# zpk zero-page fault benchmark\n")
def first(key):
    """key's value from whichever kernel's icount run has it."""
    return next((R[(k, "icount")][key] for k in kernels if key in R[(k, "icount")]), "?")


def first_swap(key):
    """key's value from each kernel's swap run, "zpk N, Linux M"."""
    got = {}
    for k in KERNELS:
        v = R[(k, "swap")].get(key)
        if v is not None:
            got.setdefault("Linux" if k == "linux" else "zpk", v)
    return ", ".join(f"{name} {v}" for name, v in got.items()) or "?"


w(f"zpbench: N = {first('zpbench.pages')} "
  f"pages per phase, sparse region {first('zpbench.sparse_mib')} MiB; "
  "each phase on a fresh private anonymous mapping; the cell is the "
  "**median** per page (the mean is in results.csv).")
if linux.get("zpbench.release"):
    w(f"Linux: Debian {linux['zpbench.release']} (bzImage from linux-image-amd64's "
      "dependency), same QEMU command line as zpk but -kernel/-initrd/-append.")
w("")
for m, what in MODES:
    w(f"## {what}\n")
    w("Source: the `" + m + "` runs." + (" Repeatable to the instruction." if m == "icount" else
      " Varies run to run by some percent; read it with the icount table."))
    w("")
    hdr = "| phase | " + " | ".join(TITLE[k] for k in kernels) + " | special / Linux |"
    w(hdr)
    w("|" + "---|" * (len(kernels) + 2))
    for key, label in PHASES:
        cells = [num(k, m, f"{key}.cycles_median") for k in kernels]
        r = ratio(num("special", m, f"{key}.cycles_median"),
                  num("linux", m, f"{key}.cycles_median"))
        w(f"| {label} | " + " | ".join(fmt(c) for c in cells) +
          f" | {fmt(r, 2)} |")
    w("")
    w("Minor faults per phase (getrusage): " + "; ".join(
        f"{TITLE[k]}: " + ", ".join(
            f"{key} {R[(k, m)].get(key + '.minflt', '—')}" for key, _ in PHASES)
        for k in kernels) + ".")
    w("")

w("## Sparse scan: memory (one byte written every 256th page, then a read of every page)\n")
w("kB, from /proc/self/status and /proc/meminfo (icount run; the free run's are the same). "
  "Linux 6.1 counts zero-page mappings in no RSS field; zpk's RssZero does.\n")
w("| kernel | RssAnon after writes | RssAnon after scan | RssZero after scan | MemFree used by writes | MemFree used in all |")
w("|---|---|---|---|---|---|")
for k in kernels:
    f = R[(k, "icount")] or R[(k, "free")]
    w(f"| {TITLE[k]} | {f.get('sparse.rss_anon_kb_written', '—')} | "
      f"{f.get('sparse.rss_anon_kb_after', '—')} | {f.get('sparse.rss_zero_kb_after', '—')} | "
      f"{f.get('sparse.memfree_used_kb_written', '—')} | {f.get('sparse.memfree_used_kb_total', '—')} |")
w("")

# thp: per 2 MiB huge page (MADV_HUGEPAGE), against 512 small pages.
THP = [("read", "read fault (the huge zero page)"),
       ("cow", "write after read (split, one page copied)"),
       ("write", "first write (2 MiB allocated and cleared)"),
       ("fork", "fork+exit+wait, per huge zero PMD"),
       ("munmap", "munmap, per huge zero PMD")]
if any(f"thp.read.cycles_median" in R[(k, "icount")] for k in kernels):
    w("## THP: per 2 MiB huge page (icount: instructions, median)\n")
    w("zpbench's thp phase: the same faults on a 2 MiB-aligned MADV_HUGEPAGE "
      "region, one touch per 2 MiB; beside each, 512 × the small-page "
      "phase's median (the same 2 MiB in 4 KiB faults). zpk with its default "
      "huge_zero_page=per-mm; Linux 6.1 booted with transparent_hugepage=always. "
      "AnonHugePages after the first write says whether the kernel gave "
      "huge pages.\n")
    w("| phase | " + " | ".join(f"{TITLE[k]} | ×512 small" for k in kernels) + " |")
    w("|---|" + "---|---|" * len(kernels))
    for key, label in THP:
        cells = []
        for k in kernels:
            small = num(k, "icount", f"{key}.cycles_median")
            cells.append(f"{fmt(num(k, 'icount', f'thp.{key}.cycles_median'))} | "
                         f"{fmt(small * 512 if small is not None else None)}")
        w(f"| {label} | " + " | ".join(cells) + " |")
    w("")
    w("AnonHugePages after the first write (kB): " + "; ".join(
        f"{TITLE[k]} {R[(k, 'icount')].get('thp.write.anon_huge_kb', '—')}"
        for k in kernels) + ".\n")
    w("Sparse scan over a MADV_HUGEPAGE region (one byte written every "
      "256th page, then a read of every page), kB:\n")
    w("| kernel | AnonHugePages after writes | RssAnon after writes | RssAnon after scan | MemFree used in all | scan, per page |")
    w("|---|---|---|---|---|---|")
    for k in kernels:
        f = R[(k, "icount")]
        w(f"| {TITLE[k]} | {f.get('thp.sparse.anon_huge_kb_written', '—')} | "
          f"{f.get('thp.sparse.rss_anon_kb_written', '—')} | "
          f"{f.get('thp.sparse.rss_anon_kb_after', '—')} | "
          f"{f.get('thp.sparse.memfree_used_kb_total', '—')} | "
          f"{fmt(num(k, 'icount', 'thp.sparse.cycles_median'))} |")
    w("")

# swap: more than RAM written, then read back (free-running, host time).
swap_kernels = [k for k in KERNELS if "swap.out.pages" in R[(k, "swap")]]
if swap_kernels:
    def sw(k, key):
        v = num(k, "swap", f"swap.{key}")
        return v if v is None or v >= 0 else None	# -1: not read

    def mib_s(k, pages, ns):
        p, t = sw(k, pages), sw(k, ns)
        return p * 4096 / 2**20 / (t / 1e9) if p is not None and t else None

    def reclaim(k):
        mean, med, n, out = (sw(k, "out.cycles_mean"), sw(k, "out.cycles_median"),
                             sw(k, "out.pages"), sw(k, "out.pswpout"))
        if None in (mean, med, n) or not out:
            return None
        return (mean - med) * n / out

    w("## Swap: reclaim to a virtio disk (free-running TCG: TSC cycles, host time)\n")
    w("zpbench --only swap on each kernel booted with the same RAM "
      f"(MemTotal in kB: {first_swap('boot.memtotal_kb')}) and a fresh "
      "swap disk (a raw image, virtio-blk): a region of MemAvailable and "
      "half of RAM more, each page written once in order (past the free "
      "memory the faults wait for reclaim: swap-out), then read back in "
      "order and checked (each page reclaim took is a major fault: "
      "swap-in; reading it evicts one read later, as any in-order re-read "
      "of more than RAM does under LRU). Linux's swap readahead is off "
      "(vm.page-cluster 0), so that a major fault reads one page on both; "
      "zpk has none. *Reclaim per page out* is the write pass's cycles "
      "above its median, per page written to swap. Host time: the disk is "
      "a file in the host's page cache, and the other lane of make bench "
      "runs beside.\n")
    w("| kernel | pages | write, median | reclaim per page out | pswpout | "
      "swap-out MiB/s | read, median | major faults | swap-in MiB/s | "
      "pages bad |")
    w("|---|---|---|---|---|---|---|---|---|---|")
    for k in swap_kernels:
        w(f"| {TITLE[k]} | {fmt(sw(k, 'out.pages'))} | "
          f"{fmt(sw(k, 'out.cycles_median'))} | {fmt(reclaim(k))} | "
          f"{fmt(sw(k, 'out.pswpout'))} | "
          f"{fmt(mib_s(k, 'out.pswpout', 'out.ns'), 1)} | "
          f"{fmt(sw(k, 'in.cycles_median'))} | {fmt(sw(k, 'in.majflt'))} | "
          f"{fmt(mib_s(k, 'in.pswpin', 'in.ns'), 1)} | "
          f"{R[(k, 'swap')].get('swap.in.bad', '—')} |")
    w("")

# Scale: per-page median over N (icount only).
ns = sorted({int(x.split(".")[2]) for k in kernels for x in R[(k, "icount")]
             if x.startswith("scale.read.") and x.endswith(".cycles_median")})
if ns:
    w("## Per-page cost over N (icount: instructions per page, median)\n")
    w("| N pages | " + " | ".join(f"{TITLE[k]} read | {TITLE[k]} cow | {TITLE[k]} fork"
                               for k in kernels) + " |")
    w("|---|" + "---|---|---|" * len(kernels))
    for n in ns:
        w(f"| {n} | " + " | ".join(
            f"{fmt(num(k, 'icount', f'scale.read.{n}.cycles_median'))} | "
            f"{fmt(num(k, 'icount', f'scale.cow.{n}.cycles_median'))} | "
            f"{fmt(num(k, 'icount', f'scale.fork.{n}.cycles_median'))}" for k in kernels) + " |")
    w("")
    big = ns[-1]
    w(f"Fork + exit of a {big * 4 // 1024} MiB zero-mapped region (N = {big}), whole, "
      "in instructions (icount, ≈ per-page median × N): " + "; ".join(
          f"{TITLE[k]} {fmt(num(k, 'icount', f'scale.fork.{big}.cycles_median') * big) if num(k, 'icount', f'scale.fork.{big}.cycles_median') else '—'}"
          for k in kernels) + ".\n")
    w("Spread (max/min − 1 over N) of the median and of the mean:\n")
    for k in kernels:
        parts = []
        for ph in ("read", "cow"):
            for stat in ("median", "mean"):
                v = [num(k, "icount", f"scale.{ph}.{n}.cycles_{stat}") for n in ns]
                v = [x for x in v if x]
                if v:
                    parts.append(f"{ph} {stat} {100 * (max(v) / min(v) - 1):.0f}%")
        w(f"- {TITLE[k]}: " + ", ".join(parts))
    w("")

# vmas: one read fault at a random one of N VMAs.
vns = sorted({int(x.split(".")[1]) for k in kernels for m, _ in MODES for x in R[(k, m)]
              if x.startswith("vmas.") and x.endswith(".cycles_median")})


def fit_log2(k, m):
    """Least squares cost = a + b log2 N over the vmas figures: a, b, R^2."""
    pts = [(math.log2(n), num(k, m, f"vmas.{n}.cycles_median")) for n in vns]
    pts = [(x, y) for x, y in pts if y is not None]
    if len(pts) < 3:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    b = sum((x - mx) * (y - my) for x, y in pts) / sxx
    a = my - b * mx
    ss = sum((y - my) ** 2 for _, y in pts)
    res = sum((y - a - b * x) ** 2 for x, y in pts)
    return a, b, (1 - res / ss) if ss else 1.0


def vmas_ratio(k, m, hi=65536, lo=16):
    return ratio(num(k, m, f"vmas.{hi}.cycles_median"), num(k, m, f"vmas.{lo}.cycles_median"))


if vns:
    w("## VMA lookup: a read fault at a random one of N VMAs (median per fault)\n")
    mmc = next((R[(k, m)][key] for k in kernels for m, _ in MODES
                for key in ("vmas.max_map_count_raised_from",) if key in R[(k, m)]), None)
    w("N one-page VMAs of alternating protection (no two can merge); each step reads a "
      "random one (so the VMA lookup misses the last-used cache for N > 1), then "
      "MADV_DONTNEED empties it again, untimed." + (
          f" max_map_count was {mmc} on boot and zpbench raised it (as root) for the phase."
          if mmc else ""))
    w("")
    for m, what in (("icount", "Instructions per fault (icount)"),
                    ("free", "TSC cycles per fault (free-running TCG: host time, noisy)")):
        w(f"{what}:\n")
        w("| N VMAs | " + " | ".join(TITLE[k] for k in kernels) + " |")
        w("|---|" + "---|" * len(kernels))
        for n in vns:
            w(f"| {n} | " + " | ".join(
                "skipped" if R[(k, m)].get(f"vmas.{n}.skipped") else
                fmt(num(k, m, f"vmas.{n}.cycles_median")) for k in kernels) + " |")
        w("")
        fits = []
        for k in kernels:
            f = fit_log2(k, m)
            if f:
                fits.append(f"{TITLE[k]} {f[0]:,.0f} + {f[1]:,.1f} log2 N "
                            f"(R² {f[2]:.2f}; N = 65536 / N = 16: {fmt(vmas_ratio(k, m), 2)})")
        if fits:
            w("Fit (least squares over the N above): " + "; ".join(fits) + ".\n")

w("## Boot\n")
w("Wall time from QEMU's start to zpbench's first line (free-running run; includes "
  "firmware and, for zpk, GRUB), and the kernel's own memory after boot "
  "(MemTotal − MemFree read by zpbench before any work; Linux's includes its "
  "initramfs in RAM, and MemTotal excludes memory reserved at boot).\n")
w("| kernel | QEMU start → first line (s) | MemTotal (kB) | MemTotal − MemFree (kB) |")
w("|---|---|---|---|")
for k in kernels:
    f = R[(k, "free")]
    w(f"| {TITLE[k]} | {f.get('bench.first_line_s', '—')} | {f.get('boot.memtotal_kb', '—')} | "
      f"{f.get('boot.mem_used_kb', '—')} |")
r = ratio(num("special", "free", "bench.first_line_s"), num("linux", "free", "bench.first_line_s"))
w(f"\nzpk special / Linux boot-to-first-line: {fmt(r, 2)}.\n")

# The 2009 story: faults per second on several CPUs.
smp_ts = sorted({int(x.split(".")[2]) for k in smp_kernels for x in R[(k, "smp")]
                 if x.startswith("smp.procs.") and x.endswith(".faults_per_s")})
total_fig = load("total")
if smp_ts:
    one = R[(smp_kernels[0], "smp")]
    w("## The 2009 story, measured: read faults per second on several CPUs\n")
    w(f"zpbench --procs T and --threads T on `-smp {max(smp_ts)}` (MTTCG, free-running: "
      f"no -icount with several CPUs): T workers, each pinned to a CPU of its own, "
      f"map {one.get('smp.pages', '?')} fresh pages, read each (a zero-page fault, "
      f"or under off a fresh page) and unmap them, {one.get('smp.rounds', '?')} times; "
      "the cell is all the workers' faults per second of wall time (the slowest one's), "
      f"best of {one.get('smp.repeat', '?')} runs, and in brackets the ratio to T = 1. "
      f"**The host has {total_fig.get('bench.host_cpus', '?')} cores** (load "
      f"{total_fig.get('bench.host_load', '?')} at the end): only that many virtual CPUs "
      "really run at once, so beyond T = that number the workers take turns and "
      "the total cannot grow; what the table can show is the cost of sharing.\n")
    for mode, what in SMP_MODES:
        w(f"### {mode}: {what}\n")
        w("| T | " + " | ".join(TITLE[k] for k in smp_kernels) + " |")
        w("|---|" + "---|" * len(smp_kernels))
        for t in smp_ts:
            cells = []
            for k in smp_kernels:
                v = num(k, "smp", f"smp.{mode}.{t}.faults_per_s")
                b = num(k, "smp", f"smp.{mode}.1.faults_per_s")
                cells.append(f"{fmt(v)} ({fmt(ratio(v, b), 2)}×)" if v else "—")
            w(f"| {t} | " + " | ".join(cells) + " |")
        w("")
        w("Nanoseconds per fault, each worker's own (mean over the workers, best run): " +
          "; ".join(f"{TITLE[k]}: " + ", ".join(
              f"T={t} {fmt(num(k, 'smp', f'smp.{mode}.{t}.ns_per_fault'))}" for t in smp_ts)
              for k in smp_kernels) + ".\n")

# Targets, reported, not asserted.
w("## Targets (reported, not asserted)\n")


def verdict(v, limit, unit=""):
    if v is None:
        return "no figure"
    if v <= limit:
        return f"{v:,.2f}{unit} (target ≤ {limit}{unit}): met"
    return (f"{v:,.2f}{unit} (target ≤ {limit}{unit}): missed by {v - limit:,.2f}{unit} "
            f"({100 * (v / limit - 1):.0f}% over)")


def tgt(label, r, limit):
    w(f"- {label}: {verdict(r, limit)}")


w("Issue 16, from this run (zpk special against Linux in the same QEMU):\n")
for key, label in (("read", "read fault"), ("cow", "COW from zero"),
                   ("fork", "fork+exit per zero page"), ("munmap", "munmap per zero page")):
    for m, unit in (("icount", "instructions"), ("free", "TCG host cycles")):
        tgt(f"{label} / Linux's, {unit}", ratio(
            num("special", m, f"{key}.cycles_median"),
            num("linux", m, f"{key}.cycles_median")), 0.5)
rf = num("special", "icount", "read.cycles_median")
w(f"- read fault, instructions: " + (
    "no figure" if rf is None else (f"{rf:,.0f} (target ≤ 250): " + (
        "met" if rf <= 250 else f"missed by {rf - 250:,.0f} ({100 * (rf / 250 - 1):.0f}% over)"))))
if vns:
    for m, unit in (("icount", "instructions"), ("free", "TCG host cycles")):
        tgt(f"vmas at N = 65536 / at N = 16, {unit}", vmas_ratio("special", m), 2)
w("")
w("Earlier targets:\n")
tgt("zpk special / Linux, first write, instructions", ratio(
    num("special", "icount", "write.cycles_median"),
    num("linux", "icount", "write.cycles_median")), 0.5)
if ns:
    for ph in ("read", "cow"):
        v = [num("special", "icount", f"scale.{ph}.{n}.cycles_median") for n in ns]
        v = [x for x in v if x]
        if v:
            s = max(v) / min(v) - 1
            w(f"- zpk special {ph} per page flat over N={ns[0]}…{ns[-1]}: spread {100*s:.0f}% "
              f"(target ≤ 20%): " + ("met" if s <= 0.2 else "missed"))
tgt("zpk boot to first line / Linux's", r, 0.25)
total = load("total").get("bench.total_s")
if total:
    w(f"- whole make bench: {total} s (target < 300 s): " +
      ("met" if float(total) < 300 else "missed"))
w("")

pa = {}
for m in ("free", "icount"):
    try:
        with open(os.path.join(RUNS, f"page-alloc-{m}.txt")) as f:
            pa[m] = [l.rstrip("\n") for l in f if l.strip()]
    except OSError:
        pa[m] = []
if pa.get("free") or pa.get("icount"):
    w("## zpk's page allocator (bench=mm, in-kernel)\n")
    w("```")
    for a, b in zip(pa.get("free", []), pa.get("icount", []) or [""] * len(pa.get("free", []))):
        w(f"{a:<60}  | icount: {b}")
    w("```\n")

# make c2c's figures, when it has run: the cause the timings cannot show.
C2C = os.environ.get("C2C_OUT", "build/c2c")
try:
    with open(os.path.join(C2C, "report.md")) as f:
        c2c = f.read().split("\n## ")
    keep = [c for c in c2c if c.startswith(("Shared writes per fault",
                                            "Transfers per fault"))]
    if keep:
        w("## Cache-line sharing per fault (from make c2c)\n")
        w(f"From {C2C}/report.md, which has the top lines and the targets; "
          "docs/c2c.md says how to read it.\n")
        for c in keep:
            w("### " + c.strip() + "\n")
        if os.path.exists(os.path.join(C2C, "c2c.png")):
            shutil.copy(os.path.join(C2C, "c2c.png"), os.path.join(D, "c2c.png"))
            w("![shared writes per fault](c2c.png)\n")
except OSError:
    pass

with open(os.path.join(D, "report.md"), "w") as f:
    f.write("\n".join(out) + "\n")

with open(os.path.join(D, "results.csv"), "w", newline="") as f:
    c = csv.writer(f)
    c.writerow(["kernel", "mode", "key", "value"])
    for (k, m), fig in sorted(R.items()):
        for key, v in fig.items():
            c.writerow([k, m, key, v])

# Plots.
dat = os.path.join(D, "faults.dat")
with open(dat, "w") as f:
    f.write("phase " + " ".join(TITLE[k].replace(" ", "_") for k in kernels) + "\n")
    for key, _ in PHASES:
        f.write(key + " " + " ".join(
            str(num(k, "icount", f"{key}.cycles_median") or "NaN") for k in kernels) + "\n")
gp = f"""set terminal pngcairo size 1000,560 noenhanced
set output '{D}/faults.png'
set title 'Instructions per page (median, -icount shift=0), N={R[("special","icount")].get("zpbench.pages","?")}'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set yrange [5:*]
set ylabel 'instructions per page (log)'
set key top right
set grid ytics
plot '{dat}' using 2:xtic(1) title columnheader(2)""" + "".join(
    f", '' using {i + 2} title columnheader({i + 2})" for i in range(1, len(kernels))) + "\n"
if ns:
    sdat = os.path.join(D, "scale.dat")
    with open(sdat, "w") as f:
        for n in ns:
            f.write(f"{n} " + " ".join(
                f"{num(k, 'icount', f'scale.read.{n}.cycles_median') or 'NaN'} "
                f"{num(k, 'icount', f'scale.cow.{n}.cycles_median') or 'NaN'}"
                for k in kernels) + "\n")
    plots = []
    for i, k in enumerate(kernels):
        plots.append(f"'{sdat}' using 1:{2 + 2 * i} with linespoints lw 2 title '{TITLE[k]} read'")
        plots.append(f"'{sdat}' using 1:{3 + 2 * i} with linespoints dt 2 lw 2 title '{TITLE[k]} cow'")
    gp += f"""set output '{D}/scale.png'
set title 'Per-page cost over N (median instructions, -icount shift=0)'
set style data linespoints
unset style
set logscale x 2
set logscale y
set yrange [*:*]
set xlabel 'N pages'
set ylabel 'instructions per page (log)'
set key outside right
plot """ + ", ".join(plots) + "\n"
if vns:
    vdat = os.path.join(D, "vmas.dat")
    with open(vdat, "w") as f:
        for n in vns:
            f.write(f"{n} " + " ".join(
                f"{num(k, m, f'vmas.{n}.cycles_median') or 'NaN'}"
                for m in ("icount", "free") for k in kernels) + "\n")
    plots = [f"'{vdat}' using 1:{2 + j * len(kernels) + i} with linespoints lw 2"
             f"{' dt 2' if m == 'free' else ''} title '{TITLE[k]} {m}'"
             for j, m in enumerate(("icount", "free")) for i, k in enumerate(kernels)]
    gp += f"""set output '{D}/vmas.png'
set title 'A read fault at a random one of N VMAs (median; icount: instructions, free: TCG cycles)'
set style data linespoints
set logscale x 2
set logscale y
set yrange [*:*]
set xlabel 'N VMAs'
set ylabel 'per fault (log)'
set key outside right
plot """ + ", ".join(plots) + "\n"
if smp_ts:
    mdat = os.path.join(D, "smp.dat")
    with open(mdat, "w") as f:
        for t in smp_ts:
            f.write(f"{t} " + " ".join(
                str(num(k, "smp", f"smp.{mode}.{t}.faults_per_s") or "NaN")
                for mode, _ in SMP_MODES for k in smp_kernels) + "\n")
    gp += f"""set output '{D}/smp.png'
unset style
set style data linespoints
set multiplot layout 1,2 title 'Read faults per second, T workers on -smp {max(smp_ts)} (MTTCG, host: {total_fig.get("bench.host_cpus", "?")} cores)'
set logscale x 2
unset logscale y
set yrange [0:*]
set xtics ({", ".join(str(t) for t in smp_ts)})
set xlabel 'T workers'
set ylabel 'faults per second, all workers'
set key top left
"""
    for i, (mode, _) in enumerate(SMP_MODES):
        plots = [f"'{mdat}' using 1:{2 + i * len(smp_kernels) + j} lw 2 title '{TITLE[k]}'"
                 for j, k in enumerate(smp_kernels)]
        gp += f"set title '{mode}'\nplot " + ", ".join(plots) + "\n"
    gp += "unset multiplot\n"
try:
    subprocess.run(["gnuplot"], input=gp, text=True, check=True)
except (OSError, subprocess.CalledProcessError) as e:
    print(f"bench-report: gnuplot failed: {e}", file=sys.stderr)
