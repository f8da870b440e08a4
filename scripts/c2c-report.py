#!/usr/bin/env python3
"""scripts/c2c-report.py — name the lines of a c2c plugin report, as perf
c2c report does: what each shared line is and which functions wrote it.

  c2c-report.py REPORT LOG ELF|KALLSYMS [--top N]
  c2c-report.py --summary DIR ZPK_ELF [PLOT.png]

The first form prints each window's top lines, named. The second reads
make c2c's runs, DIR/KERNEL.RUN.{txt,log} (KERNEL special, refcount, off
or linux; make c2c-huge's hzp-refcount, hzp-per-mm, hzp-persistent or
linux-thp; Linux's symbols in DIR/linux-kallsyms.txt), and prints the
report as Markdown: per fault figures for each zpbench --c2c window, the
top lines at the largest T, the targets of issue 26, and the plot.

REPORT is the plugin's out= file, LOG the guest's serial log, and the
symbols come from zpk's ELF (nm) or from Linux's /proc/kallsyms as the
guest printed it. A line is named by the virtual address of its last write
(the plugin keeps one per line): a kernel image symbol+offset, the struct
page of pfn N (and whether that pfn is the zero page), a direct-map page
(pfn N), or user memory. Writers are the functions holding the writing
instructions (docs/c2c.md)."""
import bisect
import os
import re
import subprocess
import sys

KERNEL_VMA = 0xffffffff80000000
USER_END = 0x0000800000000000
# x86-64's regions without KASLR (Linux's Documentation/arch/x86/x86_64/
# mm.rst), by paging mode: zpk uses 4-level's direct map; Linux 6.1 under
# QEMU's -cpu max (LA57) runs 5-level. (start, size, what).
REGIONS = [
    (0xffff888000000000, 1 << 46, "direct map"),	# 4-level
    (0xffffc90000000000, 1 << 45, "vmalloc"),
    (0xffffea0000000000, 1 << 40, "vmemmap"),
    (0xff11000000000000, 1 << 52, "direct map"),	# 5-level
    (0xffa0000000000000, 1 << 52, "vmalloc"),
    (0xffd4000000000000, 1 << 49, "vmemmap"),
]


def region(va):
    """(start, what) of the region holding va, or (None, None)."""
    for start, size, what in REGIONS:
        if start <= va < start + size:
            return start, what
    return None, None


class Symbols:
    """Sorted (address, size, name) of one kernel; size 0 when unknown."""

    def __init__(self, path):
        self.syms = []
        with open(path, "rb") as f:
            elf = f.read(4) == b"\x7fELF"
        lines = (subprocess.run(["nm", "-n", "-S", path], check=True,
                                capture_output=True, text=True).stdout
                 if elf else open(path).read()).splitlines()
        for ln in lines:
            p = ln.split()
            if len(p) == 4:		# nm -S: addr size type name
                addr, size, kind, name = int(p[0], 16), int(p[1], 16), p[2], p[3]
            elif len(p) >= 3:		# nm, kallsyms: addr type name [module]
                addr, size, kind, name = int(p[0], 16), 0, p[1], p[2]
            else:
                continue
            if kind in "aAuUwW" or addr < KERNEL_VMA:
                continue
            self.syms.append((addr, size, name))
        self.syms.sort()
        self.addrs = [s[0] for s in self.syms]
        self.by_name = {s[2]: s[0] for s in self.syms}

    def name(self, addr):
        """symbol+0xoff for addr, or None outside every symbol."""
        i = bisect.bisect_right(self.addrs, addr) - 1
        if i < 0:
            return None
        base, size, name = self.syms[i]
        if size and addr >= base + size:
            return None
        return f"{name}+{addr - base:#x}" if addr != base else name

    def in_line(self, va, size=64):
        """Names of the symbols that overlap va's cache line."""
        line = va & ~(size - 1)
        i = max(bisect.bisect_right(self.addrs, line) - 1, 0)
        names = []
        while i < len(self.syms) and self.syms[i][0] < line + size:
            base, sz, name = self.syms[i]
            if base >= line or (sz and base + sz > line):
                names.append(name)
            i += 1
        return names

    def function(self, pc):
        n = self.name(pc)
        return n.split("+")[0] if n else f"{pc:#x}"


class Layout:
    """Where struct pages and the zero page are: from zpk's boot log
    (mm/init.c's layout), or Linux's fixed vmemmap and its symbols."""

    def __init__(self, log, syms):
        text = open(log, errors="replace").read()
        m = re.search(r"mem_map\s*: (0x[0-9a-f]+) - (0x[0-9a-f]+)", text)
        z = re.search(r"zero page\s*: 0x[0-9a-f]+ pfn (0x[0-9a-f]+)", text)
        self.struct_page = 64
        if m and z:
            self.kernel = "zpk"
            self.mem_map, self.mem_map_end = int(m[1], 16), int(m[2], 16)
            self.zero_pfn = int(z[1], 16)
        else:
            self.kernel = "linux"
            self.mem_map = self.mem_map_end = None	# vmemmap's region
            zp = syms.by_name.get("empty_zero_page")
            self.zero_pfn = (zp - KERNEL_VMA) >> 12 if zp else None

    def name(self, va, syms):
        """(kind, name) of the line at virtual address va."""
        if va < USER_END:
            return "user", f"user {va:#x}"
        start, what = region(va)
        if self.mem_map is not None and self.mem_map <= va < self.mem_map_end:
            start, what = self.mem_map, "vmemmap"
        elif self.mem_map is not None and what == "vmemmap":
            start, what = None, None
        if what == "vmemmap":
            pfn = (va - start) // self.struct_page
            off = (va - start) % self.struct_page
            name = "the zero page's struct page" if pfn == self.zero_pfn \
                else f"struct page of pfn {pfn:#x}"
            return "struct page", name + (f" +{off:#x}" if off else "")
        if va >= KERNEL_VMA:	# the last write's symbol, and its neighbours
            n = syms.name(va) or f"image {va:#x}"
            others = [o for o in syms.in_line(va) if o != n.split("+")[0]]
            return "kernel image", n + (f" (line: also {', '.join(others)})"
                                        if others else "")
        if what == "direct map":
            pa = va - start
            return "page", f"pfn {pa >> 12:#x} +{pa & 0xfff:#x}"
        if what == "vmalloc":	# Linux: kernel stacks (VMAP_STACK), modules
            return "vmalloc", f"vmalloc {va:#x}"
        return "other", f"{va:#x}"


LINE = re.compile(r"line (0x[0-9a-f]+) va (0x[0-9a-f]+) writes (\d+) reads (\d+)"
                  r" transfers (\d+) invals (\d+) cpus(.*?) pcs(.*)$")


def parse(report):
    """The plugin report: a list of windows, each (totals, lines), where
    totals is a dict and lines the window's top lines (dicts)."""
    windows = []
    for ln in open(report):
        if ln.startswith("c2c: window "):
            windows.append(({"window": int(ln.split()[2])}, []))
            continue
        if not windows:
            continue
        totals, lines = windows[-1]
        m = LINE.match(ln)
        if m:
            cpus = dict(tuple(map(int, c.split(":"))) for c in m[7].split())
            pcs = [(int(a, 16), int(n)) for a, n in
                   (p.split(":") for p in m[8].split())]
            lines.append(dict(pa=int(m[1], 16), va=int(m[2], 16),
                              writes=int(m[3]), reads=int(m[4]),
                              transfers=int(m[5]), invals=int(m[6]),
                              cpus=cpus, pcs=pcs))
        elif ln.startswith(("reads ", "shared_lines ")):
            p = ln.split()
            totals.update({p[i]: int(p[i + 1]) for i in range(0, len(p) - 1, 2)})
    return windows


def zpbench_windows(log):
    """{window: (mode, T, faults)} from zpbench --c2c's lines in the log."""
    figs = {}
    for m in re.finditer(r"smp\.(\w+)\.(\d+)\.(c2c_window|faults)=(\d+)",
                         open(log, errors="replace").read()):
        figs.setdefault((m[1], int(m[2])), {})[m[3]] = int(m[4])
    return {f["c2c_window"]: (mode, t, f.get("faults"))
            for (mode, t), f in figs.items() if "c2c_window" in f}


def writers(line, syms):
    """Functions that wrote the line, heaviest first: [(function, writes)]."""
    by_fn = {}
    for pc, n in line["pcs"]:
        fn = "user" if pc < USER_END else syms.function(pc)
        by_fn[fn] = by_fn.get(fn, 0) + n
    return sorted(by_fn.items(), key=lambda x: -x[1])


def named(report, log, syms):
    """The report's windows with each line named (kind, name, writers)."""
    layout = Layout(log, syms)
    windows = parse(report)
    for _, lines in windows:
        for ln in lines:
            ln["kind"], ln["name"] = layout.name(ln["va"], syms)
            ln["writers"] = writers(ln, syms)
    return windows, layout


def print_lines(lines, top, faults=None):
    per = f"{'per fault':>9} " if faults else ""
    print(f"{'writes':>8} {per}{'xfers':>6}  {'vCPUs':<24} line")
    for ln in lines[:top]:
        cpus = " ".join(f"{c}:{n}" for c, n in sorted(ln["cpus"].items()))
        fns = ", ".join(f"{f} {n}" for f, n in ln["writers"][:3])
        per = f"{ln['writes'] / faults:>9.3f} " if faults else ""
        print(f"{ln['writes']:>8} {per}{ln['transfers']:>6}  {cpus:<24} "
              f"{ln['name']}  [{fns}]")


KERNELS = ["special", "refcount", "off", "linux",
           "hzp-refcount", "hzp-per-mm", "hzp-persistent", "linux-thp"]
TITLE = {"special": "zpk special", "refcount": "zpk refcount",
         "off": "zpk off", "linux": "Linux 6.1",
         "hzp-refcount": "zpk refcount (2012)", "hzp-per-mm": "zpk per-mm (2016)",
         "hzp-persistent": "zpk persistent (2025)",
         "linux-thp": "Linux 6.1, THP always"}
# The huge zero page's global count: zpk's huge_zero_refs, Linux's
# huge_zero_refcount (mm/huge_memory.c).
HUGE_COUNT = re.compile(r"\bhuge_zero_ref")
MODES = ["procs", "threads", "forks"]
TARGET_PROCS_SPECIAL = 0.02	# issue 26: shared writes per fault at T = 8


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return None if not n else xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def load_runs(d, elf):
    """{kernel: {(mode, T): [window of each run]}}, a window being a dict of
    its totals, faults and named lines, from d/KERNEL.RUN.{txt,log}."""
    found = {}
    for k in KERNELS:
        syms = None
        run = 1
        while os.path.exists(os.path.join(d, f"{k}.{run}.txt")):
            base = os.path.join(d, f"{k}.{run}")
            if syms is None:
                syms = Symbols(os.path.join(d, "linux-kallsyms.txt")
                               if k.startswith("linux") else elf)
            windows, _ = named(base + ".txt", base + ".log", syms)
            runs = zpbench_windows(base + ".log")
            for totals, lines in windows:
                mode, t, faults = runs.get(totals["window"], (None, 0, None))
                if not faults or "(never closed)" in totals:
                    continue
                found.setdefault(k, {}).setdefault((mode, t), []).append(
                    dict(totals, faults=faults, lines=lines))
            run += 1
    return found


def per_fault(ws, key):
    return [w.get(key, 0) / w["faults"] for w in ws]


def fmt(x, prec=3):
    return "—" if x is None else f"{x:.{prec}f}"


def spread(xs):
    if not xs:
        return "—"
    m = median(xs)
    return fmt(m, 2) if len(xs) == 1 else f"{m:.2f} ({min(xs):.2f}–{max(xs):.2f})"


def zero_line(w, huge=False):
    """Writes to the zero page's struct page, or (huge) to the line of the
    huge zero page's global count."""
    return sum(ln["writes"] for ln in w["lines"]
               if (HUGE_COUNT.search(ln["name"]) if huge else
                   ln["name"].startswith("the zero page's struct page")))


def summary(d, elf, plot):
    data = load_runs(d, elf)
    ks = [k for k in KERNELS if k in data]
    if not ks:
        sys.exit(f"c2c-report: no finished runs in {d} (KERNEL.RUN.txt)")
    cells = sorted({c for k in ks for c in data[k]},
                   key=lambda c: (MODES.index(c[0]) if c[0] in MODES else 9, c[1]))
    huge = any(k.startswith("hzp-") or k == "linux-thp" for k in ks)
    what = ("fresh 2 MiB huge pages, one read each (zpbench --huge, "
            "MADV_HUGEPAGE: the huge zero page; mmap, read, munmap"
            if huge else "fresh anonymous pages (mmap, read every page, munmap")
    out = [f"# c2c: cache-line sharing per fault (make c2c{'-huge' if huge else ''})", ""]
    nruns = {k: max(len(v) for v in data[k].values()) for k in ks}
    out += ["zpbench --c2c: T workers pinned to T CPUs of -smp 8, each "
            f"reading {what}; "
            "forks: and a fork+exit+wait over them), the plugin counting "
            "inside one window per run; one TCG thread, zpk under -icount "
            "shift=0, Linux without it. Runs per kernel: "
            + ", ".join(f"{TITLE[k]} {nruns[k]}" for k in ks)
            + ". docs/c2c.md says how to read this.", ""]
    hdr = "| mode | T | " + " | ".join(TITLE[k] for k in ks) + " |"
    sep = "|---|---|" + "---|" * len(ks)

    def table(title, note, cell):
        out.extend([f"## {title}", "", note, "", hdr, sep])
        for c in cells:
            out.append(f"| {c[0]} | {c[1]} | " + " | ".join(
                cell(data[k].get(c, [])) for k in ks) + " |")
        out.append("")

    table("Shared writes per fault",
          "Writes to lines that two or more vCPUs wrote in the window "
          "(median over runs): an upper bound of the lines a real machine "
          "would move, independent of the interleaving.",
          lambda ws: fmt(median(per_fault(ws, "shared_writes"))))
    table("Transfers per fault",
          "Misses on a line another vCPU held Modified (perf c2c's HITM), "
          "with each vCPU's accesses replayed in lockstep, one access each "
          "in turn: median (min–max) over runs.",
          lambda ws: spread(per_fault(ws, "transfers")))
    table("Accesses per vCPU run",
          "How finely QEMU itself interleaved the vCPUs: the median "
          "stretch of memory accesses one vCPU made before QEMU ran "
          "another. The lockstep replay does not depend on it; in QEMU's "
          "own order (order=qemu) a transfer could only happen at a switch.",
          lambda ws: str(round(median([(w.get("reads", 0) + w.get("writes", 0))
                                       / max(w.get("runs", 0), 1) for w in ws])))
          if ws else "—")
    zname = ("The huge zero page's global count" if huge else
             "The zero page's struct page")
    table(f"{zname}: its share of the shared writes",
          f"Writes to the line of {zname[0].lower() + zname[1:]}, per fault, "
          "and as a share of all shared writes (first run).",
          lambda ws: (f"{zero_line(ws[0], huge) / ws[0]['faults']:.2f} "
                      f"({100 * zero_line(ws[0], huge) / max(ws[0].get('shared_writes', 0), 1):.0f}%)")
          if ws else "—")
    tmax = max((c[1] for c in cells), default=0)
    for mode in MODES:
        out += [f"## Top 5 lines, {mode}, T = {tmax} (first run)", ""]
        for k in ks:
            ws = data[k].get((mode, tmax))
            if not ws:
                continue
            w = ws[0]
            out += [f"**{TITLE[k]}**: {w['faults']} faults, "
                    f"{w.get('shared_writes', 0) / w['faults']:.3f} shared "
                    "writes per fault", "",
                    "| per fault | transfers | vCPUs | line | writers |",
                    "|---|---|---|---|---|"]
            for ln in w["lines"][:5]:
                fns = ", ".join(f"{f} {n}" for f, n in ln["writers"][:3])
                out.append(f"| {ln['writes'] / w['faults']:.3f} | "
                           f"{ln['transfers']} | {len(ln['cpus'])} | "
                           f"{ln['name']} | {fns} |")
            out.append("")
    if not huge:
        out += targets(data, ks, cells, tmax)
    if plot:
        plot_png(data, ks, cells, plot)
        out += [f"![shared writes and transfers per fault]({os.path.basename(plot)})", ""]
    return "\n".join(out)


def targets(data, ks, cells, tmax):
    """Issue 26's targets, each met or missed by how much."""
    out = ["## Targets", ""]
    ws = data.get("special", {}).get(("procs", tmax))
    if ws:
        v = median(per_fault(ws, "shared_writes"))
        out.append(f"- procs/special at T = {tmax}: {v:.3f} shared writes per "
                   f"fault, target ≤ {TARGET_PROCS_SPECIAL}: " +
                   ("met" if v <= TARGET_PROCS_SPECIAL else
                    f"missed by {v - TARGET_PROCS_SPECIAL:.3f}"))
    if "linux" in data and "special" in data:
        for key, meter in (("shared_writes", "shared writes"),
                           ("transfers", "transfers")):
            above = []
            for c in cells:
                z, lx = data["special"].get(c), data["linux"].get(c)
                if z and lx:
                    zv = median(per_fault(z, key))
                    lv = median(per_fault(lx, key))
                    if zv > lv:
                        above.append(f"{c[0]} T = {c[1]} ({zv:.3f} > {lv:.3f})")
            out.append(f"- zpk special at or below Linux 6.1 in every cell, "
                       f"{meter}: " + ("met" if not above else
                                       "missed in " + ", ".join(above)))
    out.append("")
    return out


def plot_png(data, ks, cells, path):
    """Shared writes (top) and transfers (bottom) per fault against T, a
    panel per mode, a line per kernel."""
    dat = os.path.splitext(path)[0] + ".dat"
    ts = sorted({c[1] for c in cells})
    meters = [("shared_writes", "shared writes"), ("transfers", "transfers")]
    with open(dat, "w") as f:
        for t in ts:
            f.write(f"{t} " + " ".join(
                str(median(per_fault(data[k].get((m, t), []), key)) or "NaN")
                for key, _ in meters for m in MODES for k in ks) + "\n")
    gp = f"""set terminal pngcairo size 1200,760 noenhanced
set output '{path}'
set multiplot layout 2,{len(MODES)} title 'Per read fault, T workers on T CPUs of -smp 8 (c2c plugin; log scale)'
set style data linespoints
set logscale x 2
set logscale y 10
set yrange [0.001:*]
set xrange [{min(ts) / 1.2}:{max(ts) * 1.2}]
set xtics ({", ".join(str(t) for t in ts)})
set xlabel 'T workers (CPUs)'
set key top left font ',8'
"""
    col = 2
    for _, meter in meters:
        for m in MODES:
            plots = [f"'{dat}' using 1:{col + j} lw 2 title '{TITLE[k]}'"
                     for j, k in enumerate(ks)]
            col += len(ks)
            gp += (f"set title '{m}: {meter}'\nset ylabel '{meter} per fault'\n"
                   "plot " + ", ".join(plots) + "\nunset key\n")
    gp += "unset multiplot\n"
    try:
        subprocess.run(["gnuplot"], input=gp, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"c2c-report: gnuplot failed: {e}", file=sys.stderr)


def main():
    args = sys.argv[1:]
    top = 10
    if args[:1] == ["--summary"] and len(args) in (3, 4):
        print(summary(args[1], args[2], args[3] if len(args) == 4 else None))
        return
    if "--top" in args:
        i = args.index("--top")
        top = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 3:
        sys.exit(__doc__)
    windows, _ = named(args[0], args[1], Symbols(args[2]))
    runs = zpbench_windows(args[1])
    for totals, lines in windows:
        w = totals["window"]
        mode, t, faults = runs.get(w, ("?", "?", None))
        print(f"window {w}: {mode} T={t}"
              + (f", {faults} faults" if faults else "")
              + f": shared writes {totals.get('shared_writes', 0)}"
              f", transfers {totals.get('transfers', 0)}")
        print_lines(lines, top, faults)
        print()


if __name__ == "__main__":
    main()
