# tools/gdb/zpk_mm.py — gdb commands that show zpk's memory as the kernel
# sees it (in the spirit of Linux's scripts/gdb): tasks, VMAs, PTEs, zero page.
#
#   zpk-ps                 every task: pid, state, comm, RSS counters
#   zpk-vmas [PID]         the VMAs of PID (default: the current task)
#   zpk-pte ADDR [PID]     the page-table walk for ADDR, and the page behind
#   zpk-zero               the zero page: policy, pfn, counts, vmstat events
#   zpk-memmap [-w N] [--summary]
#                          every physical page as one character, as
#                          user/bin/memmap draws it, from struct page itself
#
# Each command's help begins with its usage, "zpk-NAME ARGS: what it does":
# tests/gdb/commands.gdb runs every zpk-* command with the ARGS it names.
#
# Memory is read through the direct map (PAGE_OFFSET), which every pgd
# shares, so the commands work whichever process the CPU is running.
import gdb

PAGE_OFFSET = 0xffff888000000000
PFN_MASK = 0x000ffffffffff000
PTE_BITS = [(0, "P"), (1, "RW"), (2, "U"), (5, "A"), (6, "D"), (7, "PS"),
            (9, "SPECIAL"), (11, "SOFT_DIRTY"), (63, "NX")]
COUNTERS = ["MM_FILEPAGES", "MM_ANONPAGES", "MM_SHMEMPAGES", "MM_ZEROPAGES"]
# enum task_state by name, as ps letters: a new state prints "?", not
# its neighbour's letter.
STATES = {"TASK_RUNNING": "R", "TASK_INTERRUPTIBLE": "S",
          "TASK_UNINTERRUPTIBLE": "D", "TASK_STOPPED": "T",
          "EXIT_ZOMBIE": "Z", "EXIT_DEAD": "X"}


def atomic_read(v):
    """An atomic_t or atomic_long_t (a struct around its counter)."""
    return int(v["counter"])


def container_of(ptr, typename, member):
    t = gdb.lookup_type(typename)
    off = int(gdb.parse_and_eval("(unsigned long)&((%s *)0)->%s"
                                 % (typename, member)))
    return gdb.Value(int(ptr) - off).cast(t.pointer())


def list_entries(head, typename, member):
    node = head["next"]
    while int(node) != int(head.address):
        yield container_of(node, typename, member)
        node = node["next"]


def tasks():
    return list_entries(gdb.parse_and_eval("task_list"),
                        "struct task_struct", "tasks")


def vm_sum(field, name):
    """A vmstat counter (field "stat") or event ("event") summed over
    the CPUs (zpk/vmstat.h)."""
    item = int(gdb.parse_and_eval(name))
    try:
        stats = gdb.parse_and_eval("vm_cpu_stats")
    except gdb.error:	# the smp lab's skeleton: one shared array
        shared = gdb.parse_and_eval("vm_stat_shared")
        base = 0 if field == "stat" else int(
            gdb.parse_and_eval("NR_VM_STAT_ITEMS"))
        return int(shared[base + item]["counter"])
    n = stats.type.range()[1] + 1
    return sum(int(stats[cpu][field][item]) for cpu in range(n))


def mm_counter(mm, member):
    """An mm's RSS counter: its CPUs' shares summed (zpk/memory.h)."""
    shares = mm["rss_stat"]
    n = shares.type.range()[1] + 1
    return sum(int(shares[cpu]["count"][member]) for cpu in range(n))


def vm_event(name):
    return vm_sum("event", name)


def current_task():
    """The task on the CPU gdb looks at: QEMU's thread N is CPU N - 1,
    whose struct pcpu (asm/percpu.h) names its task."""
    cpu = gdb.selected_thread().num - 1
    return gdb.parse_and_eval("pcpu_data[%d].current_task" % cpu)


def task_by_pid(arg):
    if not arg:
        return current_task()
    for t in tasks():
        if int(t["pid"]) == int(arg):
            return t
    raise gdb.GdbError("no task with pid %s" % arg)


def read_u64(vaddr):
    inf = gdb.selected_inferior()
    return int.from_bytes(bytes(inf.read_memory(vaddr, 8)), "little")


def flags_str(e):
    return " ".join(n for b, n in PTE_BITS if e >> b & 1)


def page_str(pfn):
    if pfn >= int(gdb.parse_and_eval("max_pfn")):
        return "pfn %#x: no struct page" % pfn
    p = gdb.parse_and_eval("mem_map")[pfn]
    return ("pfn %#x: _refcount %d _mapcount %d flags %#x%s" %
            (pfn, atomic_read(p["_refcount"]),
             atomic_read(p["_mapcount"]), int(p["flags"]),
             "  <- the zero page" if pfn == int(gdb.parse_and_eval(
                 "zero_pfn")) else ""))


class ZpkPs(gdb.Command):
    """zpk-ps: every task with its state and RSS counters (pages)."""

    def __init__(self):
        super().__init__("zpk-ps", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        print("%5s %2s %-16s %6s %6s %6s %6s" %
              ("PID", "S", "COMM", "FILE", "ANON", "SHMEM", "ZERO"))
        for t in tasks():
            mm = t["mm"]
            rss = ([mm_counter(mm, i) for i in range(4)]
                   if int(mm) else ["-"] * 4)
            print("%5d %2s %-16s %6s %6s %6s %6s" %
                  (int(t["pid"]), STATES.get(str(t["state"]), "?"),
                   t["comm"].string(), *rss))


class ZpkVmas(gdb.Command):
    """zpk-vmas [PID]: the VMAs of a task (default: the current one)."""

    def __init__(self):
        super().__init__("zpk-vmas", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        t = task_by_pid(arg.strip())
        mm = t["mm"]
        if not int(mm):
            raise gdb.GdbError("pid %d has no mm" % int(t["pid"]))
        for v in list_entries(mm["mmap"], "struct vm_area_struct",
                              "vm_list"):
            f = int(v["vm_flags"])
            print("%016x-%016x %s%s%s%s flags %#06x %s" %
                  (int(v["vm_start"]), int(v["vm_end"]),
                   "r" if f & 1 else "-", "w" if f & 2 else "-",
                   "x" if f & 4 else "-", "s" if f & 8 else "p", f,
                   "file" if int(v["vm_file"]) else "anon"))


class ZpkPte(gdb.Command):
    """zpk-pte ADDR [PID]: walk the page tables for a user address."""

    def __init__(self):
        super().__init__("zpk-pte", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        argv = gdb.string_to_argv(arg)
        if not argv:
            raise gdb.GdbError("usage: zpk-pte ADDR [PID]")
        addr = int(gdb.parse_and_eval(argv[0]))
        t = task_by_pid(argv[1] if len(argv) > 1 else "")
        table = int(t["mm"]["pgd"]) if int(t["mm"]) else 0
        if not table:
            raise gdb.GdbError("no page tables")
        for level, shift in (("pgd", 39), ("pud", 30), ("pmd", 21),
                             ("pte", 12)):
            idx = addr >> shift & 511
            e = read_u64(table + idx * 8)
            print("%s[%3d] = %#018x  %s" % (level, idx, e, flags_str(e)))
            if not e & 1:
                print("not present: the next fault at %#x is a first touch"
                      % addr)
                return
            table = (e & PFN_MASK) + PAGE_OFFSET
        print(page_str((e & PFN_MASK) >> 12))


class ZpkZero(gdb.Command):
    """zpk-zero: the zero page's policy, pfn, counts and events."""

    def __init__(self):
        super().__init__("zpk-zero", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        print("policy %s" % gdb.parse_and_eval("zero_page_policy"))
        print(page_str(int(gdb.parse_and_eval("zero_pfn"))))
        for name in ("ZERO_PAGE_MAP", "ZERO_PAGE_COW", "ZERO_PAGE_UNMAP",
                     "ZERO_PAGE_FORK_COPY", "ZERO_PAGE_REFCOUNT_OPS"):
            print("%-24s %d" % (name.lower(), vm_event(name)))


# The kinds of user/bin/memmap, in the order a page is tested for them.
MEMMAP_KINDS = [
    ("free", ".", "free (buddy allocator)"),
    ("zero", "Z", "the zero page"),
    ("kernel", "K", "reserved: kernel image, boot, firmware"),
    ("pgtable", "T", "page tables"),
    ("slab", "S", "slab"),
    ("shared", "*", "mapped more than once"),
    ("anon", "A", "anonymous, mapped once"),
    ("file", "F", "file page, mapped once"),
    ("other", "-", "other in use: page cache, kernel stacks"),
]


def member_offset(typename, member):
    return int(gdb.parse_and_eval("(unsigned long)&((%s *)0)->%s"
                                  % (typename, member)))


def pageflag(name):
    return 1 << int(gdb.parse_and_eval(name))


def mem_map_pages():
    """(flags, mapcount, order) of every pfn, read in one piece."""
    n = int(gdb.parse_and_eval("max_pfn"))
    size = int(gdb.parse_and_eval("sizeof(struct page)"))
    base = int(gdb.parse_and_eval("(unsigned long)mem_map"))
    raw = bytes(gdb.selected_inferior().read_memory(base, n * size))
    off = {m: member_offset("struct page", m)
           for m in ("flags", "_mapcount", "order")}

    def field(i, m, width, signed=False):
        at = i * size + off[m]
        return int.from_bytes(raw[at:at + width], "little", signed=signed)
    return [(field(i, "flags", 8), field(i, "_mapcount", 4, True),
             field(i, "order", 4)) for i in range(n)]


def memmap_kinds(pages):
    """Each pfn's kind, decided as kpageflags and user/bin/memmap do."""
    buddy, pcp, reserved, slab, anon, pgtable = (pageflag(f) for f in (
        "PG_buddy", "PG_pcp", "PG_reserved", "PG_slab", "PG_anon",
        "PG_pgtable"))
    free = [False] * len(pages)
    for pfn, (flags, _, order) in enumerate(pages):
        if flags & (buddy | pcp):   # a free block's head, in the buddy
            for i in range(pfn, min(pfn + (1 << order), len(pages))):
                free[i] = True  # or on a CPU's list: its pages are free
    zero = int(gdb.parse_and_eval("zero_pfn"))
    kinds = []
    for pfn, (flags, mapcount, _) in enumerate(pages):
        mapped = mapcount + 1
        kinds.append("free" if free[pfn] else "zero" if pfn == zero else
                     "kernel" if flags & reserved else
                     "pgtable" if flags & pgtable else
                     "slab" if flags & slab else
                     "shared" if mapped > 1 else
                     "anon" if flags & anon else
                     "file" if mapped > 0 else "other")
    return kinds


class ZpkMemmap(gdb.Command):
    """zpk-memmap [-w WIDTH] [--summary]: physical memory, one character a
page (user/bin/memmap's legend), and the count of each kind; the free
count must equal vm_stat's NR_FREE_PAGES."""

    def __init__(self):
        super().__init__("zpk-memmap", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        argv = gdb.string_to_argv(arg)
        width = int(argv[argv.index("-w") + 1]) if "-w" in argv else 64
        kinds = memmap_kinds(mem_map_pages())
        char = {k: c for k, c, _ in MEMMAP_KINDS}
        if "--summary" not in argv:
            for start in range(0, len(kinds), width):
                print("%08x %s" % (start, "".join(
                    char[k] for k in kinds[start:start + width])))
            print()
        print("%d pages of 4 KiB:" % len(kinds))
        for k, c, what in MEMMAP_KINDS:
            n = kinds.count(k)
            print("  %s %8d  %8d kB  %s" % (c, n, n * 4, what))
        print("NR_FREE_PAGES (vm_stat): %d pages"
              % vm_sum("stat", "NR_FREE_PAGES"))


class PageTableEntryPrinter:
    """pte_t (and pmd_t, pud_t, pgd_t) as its value and flags."""

    def __init__(self, val, field):
        self.e = int(val[field])

    def to_string(self):
        return ("%#018x  %s" % (self.e, flags_str(self.e))).rstrip()


def page_table_entry_lookup(val):
    name = val.type.strip_typedefs().name or str(val.type.unqualified())
    for field in ("pte", "pmd", "pud", "pgd"):
        if name == field + "_t" or str(val.type.unqualified()) == field + "_t":
            return PageTableEntryPrinter(val, field)
    return None


gdb.pretty_printers.append(page_table_entry_lookup)
ZpkPs()
ZpkVmas()
ZpkPte()
ZpkZero()
ZpkMemmap()
