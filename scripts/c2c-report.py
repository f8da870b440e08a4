#!/usr/bin/env python3
"""scripts/c2c-report.py — name the lines of a c2c plugin report, as perf
c2c report does: what each shared line is and which functions wrote it.

  c2c-report.py REPORT LOG ELF|KALLSYMS [--top N]

REPORT is the plugin's out= file, LOG the guest's serial log, and the
symbols come from zpk's ELF (nm) or from Linux's /proc/kallsyms as the
guest printed it. A line is named by the virtual address of its last write
(the plugin keeps one per line): a kernel image symbol+offset, the struct
page of pfn N (and whether that pfn is the zero page), a direct-map page
(pfn N), or user memory. Writers are the functions holding the writing
instructions (docs/c2c.md)."""
import bisect
import re
import subprocess
import sys

KERNEL_VMA = 0xffffffff80000000
LINUX_VMEMMAP = 0xffffea0000000000	# x86-64, 4-level paging, nokaslr
DIRECT_MAP = 0xffff888000000000		# zpk's PAGE_OFFSET; Linux's, nokaslr
USER_END = 0x0000800000000000


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
        if m and z:
            self.kernel = "zpk"
            self.mem_map, self.mem_map_end = int(m[1], 16), int(m[2], 16)
            self.zero_pfn = int(z[1], 16)
            self.struct_page = 64
        else:
            self.kernel = "linux"
            self.mem_map, self.mem_map_end = LINUX_VMEMMAP, LINUX_VMEMMAP + (1 << 40)
            zp = syms.by_name.get("empty_zero_page")
            self.zero_pfn = (zp - KERNEL_VMA) >> 12 if zp else None
            self.struct_page = 64

    def name(self, va, syms):
        """(kind, name) of the line at virtual address va."""
        if va < USER_END:
            return "user", f"user {va:#x}"
        if self.mem_map <= va < self.mem_map_end:
            pfn = (va - self.mem_map) // self.struct_page
            off = (va - self.mem_map) % self.struct_page
            what = "the zero page's struct page" if pfn == self.zero_pfn \
                else f"struct page of pfn {pfn:#x}"
            return "struct page", what + (f" +{off:#x}" if off else "")
        if va >= KERNEL_VMA:
            n = syms.name(va)
            return "kernel image", n or f"image {va:#x}"
        if DIRECT_MAP <= va < DIRECT_MAP + (1 << 46):
            pa = va - DIRECT_MAP
            return "page", f"pfn {pa >> 12:#x} +{pa & 0xfff:#x}"
        return "other", f"{va:#x}"


LINE = re.compile(r"line (0x[0-9a-f]+) va (0x[0-9a-f]+) writes (\d+) reads (\d+)"
                  r" transfers (\d+) invals (\d+) cpus(.*?) pcs(.*)$")


def parse(report):
    """The plugin report: totals (dict) and its top lines (list of dicts)."""
    totals, lines = {}, []
    for ln in open(report):
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
        elif ln.startswith("c2c: windows"):
            totals["windows"] = int(ln.split()[2])
    return totals, lines


def writers(line, syms):
    """Functions that wrote the line, heaviest first: [(function, writes)]."""
    by_fn = {}
    for pc, n in line["pcs"]:
        fn = "user" if pc < USER_END else syms.function(pc)
        by_fn[fn] = by_fn.get(fn, 0) + n
    return sorted(by_fn.items(), key=lambda x: -x[1])


def named(report, log, symfile):
    syms = Symbols(symfile)
    layout = Layout(log, syms)
    totals, lines = parse(report)
    for ln in lines:
        ln["kind"], ln["name"] = layout.name(ln["va"], syms)
        ln["writers"] = writers(ln, syms)
    return totals, lines, layout


def main():
    args = sys.argv[1:]
    top = 10
    if "--top" in args:
        i = args.index("--top")
        top = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 3:
        sys.exit(__doc__)
    totals, lines, _ = named(*args)
    print(f"{'writes':>8} {'xfers':>6}  {'vCPUs':<24} line")
    for ln in lines[:top]:
        cpus = " ".join(f"{c}:{n}" for c, n in sorted(ln["cpus"].items()))
        fns = ", ".join(f"{f} {n}" for f, n in ln["writers"][:3])
        print(f"{ln['writes']:>8} {ln['transfers']:>6}  {cpus:<24} "
              f"{ln['name']}  [{fns}]")


if __name__ == "__main__":
    main()
