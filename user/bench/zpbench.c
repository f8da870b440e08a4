/* user/bench/zpbench.c — the zero-page fault benchmark: TSC cycles per page
 * of each fault kind, on zpk, on Linux in QEMU and natively (static musl).
 *
 * usage: zpbench [--check] [--sparse MIB] [--only PHASE[,PHASE]]
 *                [--scale N1,N2,...] [--vmas N1,N2,...] [--swapon DEV]
 *                [--repeat R] [N]
 *        zpbench [--threads T1,T2,...] [--procs T1,T2,...]
 *                [--forks T1,T2,...] [--smp-pages P] [--smp-rounds R] [--smp-repeat K]
 *                [--huge] [--c2c]
 *   N        pages per phase (default 16384; --check: 256)
 *   --sparse size of the sparse-scan region in MiB (default 256; --check: 4)
 *   --only   run only these phases (read,cow,write,reread,fork,munmap,
 *            sparse,vmas,thp: the same a 2 MiB huge page at a time;
 *            swap, only when named: more than RAM written, then read)
 *   --swapon the swap phase swaps this device on first (then off)
 *   --vmas   the VMA counts of the vmas phase (default 1,16,256,4096,65536;
 *            --check: 1,16,256)
 *   --raise-max-map-count  let the vmas phase raise /proc/sys/vm/max_map_count
 *            (root) when its largest N does not fit, and put it back after:
 *            for a kernel of its own (make bench's QEMU guests), not a host
 *   --scale  then read, cow and fork again at each of these page counts,
 *            as scale.{read,cow,fork}.N.* (--only none: only these)
 *   --repeat run the selected phases R times (profiling: a longer window)
 *   --check  run the phases small and check their own figures (TAP)
 *   --threads, --procs  instead: T workers at once, threads of one
 *            process or processes, each pinned to a CPU, read-faulting
 *            P fresh pages (default 256) R times (default 100) each,
 *            the best of K runs (default 3), as smp.{threads,procs}.T.*
 *            (user/bench/smp.c)
 *   --forks  as --procs, each round also forking a child that exits at
 *            once over the read region, as smp.forks.T.*
 *   --c2c    with --threads/--procs/--forks: one run per T, its rounds
 *            inside the c2c plugin's window (docs/c2c.md), no timing
 *   --huge   with --threads/--procs/--forks: P is a count of 2 MiB huge
 *            pages (MADV_HUGEPAGE, one read each: the huge zero page)
 *
 * Output: "key=value" lines, one per figure, e.g. read.cycles_median=1234.
 * Each phase uses a fresh private anonymous mapping.  Under QEMU's -icount
 * shift=0 the TSC counts guest instructions, so the figures are exact. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/swap.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "huge.h"
#include "procfs.h"
#include "smp.h"
#include "ulib.h"

#define REPS	5	/* repetitions of the whole-range phases (fork, munmap) */



static uint64_t *samples;	/* one per page, touched before any phase */
static size_t nsamples;
static int check_mode;
static const char *vmas_list;	/* --vmas: the vmas phase's VMA counts */
static int raise_mmc;		/* --raise-max-map-count */
static const char *swap_dev;	/* --swapon: the swap phase's area */
static char policy[16];	/* "special", "refcount", "off" or "linux" */
static int zero_in_use;	/* --check: read faults map the zero page */

/* Write every sample, so that no phase takes a fault on its own samples:
 * at the start, and after a fork (which write-protects them for COW). */
static void touch_samples(void)
{
	size_t i;

	for (i = 0; i < nsamples; i++)
		samples[i] = 1;
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) ::
			 "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* The memory figures a phase reports before and after it runs (kB). */
struct snap {
	long long anon, file, zero, memfree, anon_huge;
};

static void snap(struct snap *s)
{
	char *st = proc_read("/proc/self/status", NULL);
	char *mi = proc_read("/proc/meminfo", NULL);

	s->anon = st ? proc_field(st, NULL, "RssAnon") : -1;
	s->file = st ? proc_field(st, NULL, "RssFile") : -1;
	s->zero = st ? proc_field(st, NULL, "RssZero") : -1;
	s->memfree = mi ? proc_field(mi, NULL, "MemFree") : -1;
	s->anon_huge = mi ? proc_field(mi, NULL, "AnonHugePages") : -1;
	free(st);
	free(mi);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sorts v in place; the median (mean of the middle two for even n). */
static uint64_t median(uint64_t *v, size_t n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u64);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static uint64_t mean(const uint64_t *v, size_t n)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += v[i];
	return n ? sum / n : 0;
}

/* The figures of one phase, kept for --check and printed as key=value. */
struct result {
	const char *name;
	long pages, minflt;
	uint64_t med, avg;
	struct snap before, after;
};

static void put(const char *phase, const char *key, long long v)
{
	if (!check_mode)
		printf("%s.%s=%lld\n", phase, key, v);
}

static void put_snap(const char *phase, const char *when, const struct snap *s)
{
	char k[48];

	snprintf(k, sizeof(k), "rss_anon_kb_%s", when);
	put(phase, k, s->anon);
	snprintf(k, sizeof(k), "rss_file_kb_%s", when);
	put(phase, k, s->file);
	if (s->zero >= 0) {
		snprintf(k, sizeof(k), "rss_zero_kb_%s", when);
		put(phase, k, s->zero);
	}
}

static void report(struct result *r)
{
	put(r->name, "pages", r->pages);
	put(r->name, "cycles_median", (long long)r->med);
	put(r->name, "cycles_mean", (long long)r->avg);
	put(r->name, "minflt", r->minflt);
	put_snap(r->name, "before", &r->before);
	put_snap(r->name, "after", &r->after);
	put(r->name, "memfree_used_kb", r->before.memfree - r->after.memfree);
	fflush(stdout);
}

/* "zpbench.phase=NAME" just before a timed part: scripts/bench-profile.sh
 * starts QEMU's instruction log when it sees it. */
static void mark(const char *name)
{
	if (!check_mode) {
		printf("zpbench.phase=%s\n", name);
		fflush(stdout);
	}
}

static char *map(size_t pages)
{
	char *p = mmap(NULL, pages * PAGE_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		printf("zpbench.error=mmap of %zu pages failed\n", pages);
		exit(1);
	}
	/* Linux's THP would map 2 MiB at a time (or the huge zero page):
	 * ask for base pages.  zpk has no THP and may refuse the hint. */
	madvise(p, pages * PAGE_SIZE, MADV_NOHUGEPAGE);
	return p;
}

/* A phase's region: n pages, or (the thp phase) n 2 MiB huge pages
 * inside a mapping a huge page larger (huge.h); munmap takes base, len. */
struct region {
	char *p, *base;
	size_t len, step;
	long n;
};

static void region_map(struct region *g, long n, int huge)
{
	g->n = n;
	g->step = huge ? HPAGE_SIZE : PAGE_SIZE;
	if (!huge) {
		g->p = g->base = map(n);
		g->len = n * PAGE_SIZE;
	} else if (!(g->p = map_huge(n, &g->base, &g->len))) {
		printf("zpbench.error=mmap of %ld huge pages failed\n", n);
		exit(1);
	}
}

/* A read of each page of the region (a fault each, the first time). */
static void read_all(struct region *g)
{
	for (long i = 0; i < g->n; i++)
		(void)*(volatile char *)(g->p + i * g->step);
}

enum touch { T_READ, T_WRITE };

/* Time one touch per page of g: samples[i] = cycles of page i. */
static void time_pages(struct region *g, enum touch how)
{
	uint64_t t0, t1;
	long i;

	for (i = 0; i < g->n; i++) {
		volatile char *a = g->p + i * g->step;

		t0 = rdtsc();
		if (how == T_READ)
			(void)*a;
		else
			*a = 1;
		t1 = rdtsc();
		samples[i] = t1 - t0;
	}
}

/* The mean and median of the phase's first n samples, then its line. */
static void summarize(struct result *r, long n)
{
	r->avg = mean(samples, n);
	r->med = median(samples, n);
	report(r);
}

/* /proc/meminfo's AnonHugePages (kB): the THPs mapped now. */
static long long anon_huge_kb(void)
{
	char *mi = proc_read("/proc/meminfo", NULL);
	long long kb = mi ? proc_field(mi, NULL, "AnonHugePages") : -1;

	free(mi);
	return kb;
}

/* One timed access (how) to each page of g, its faults counted; then the
 * region goes and the phase is summarized. A huge region also reports
 * the THPs it had mapped, to show that it got them. */
static void time_and_unmap(struct result *r, struct region *g,
			   enum touch how)
{
	long f0 = self_minflt();
	long long huge_kb;

	time_pages(g, how);
	r->minflt = self_minflt() - f0;
	snap(&r->after);
	huge_kb = g->step == HPAGE_SIZE ? anon_huge_kb() : -1;
	munmap(g->base, g->len);
	summarize(r, g->n);
	if (huge_kb >= 0)
		put(r->name, "anon_huge_kb", huge_kb);
}

/* read: read fault per page; cow: write after read; write: first write;
 * reread: read of pages already mapped (the floor of the method). huge:
 * the pages are 2 MiB (the thp phase). */
static void phase_touch(struct result *r, const char *name, long n,
			const char *key, int huge)
{
	struct region g;

	region_map(&g, n, huge);
	r->name = key ? key : name;
	r->pages = n;
	if (!strcmp(name, "cow") || !strcmp(name, "reread"))
		read_all(&g);
	snap(&r->before);
	mark(r->name);
	time_and_unmap(r, &g, strcmp(name, "read") &&
			      strcmp(name, "reread") ? T_WRITE : T_READ);
}

/* fork + child exit + wait with n zero-mapped pages, per page; base is the
 * same without the mapping, so the per-page part can be told apart. */
static void phase_fork(struct result *r, long n, const char *key, int huge)
{
	uint64_t base[REPS], t0;
	struct region g;
	long f0;
	int i;

	for (i = 0; i < REPS; i++) {
		t0 = rdtsc();
		if (fork() == 0)
			_exit(0);
		wait(NULL);
		base[i] = rdtsc() - t0;
	}
	region_map(&g, n, huge);
	read_all(&g);
	r->name = key ? key : "fork";
	r->pages = n;
	snap(&r->before);
	mark(r->name);
	f0 = self_minflt();
	for (i = 0; i < REPS; i++) {
		t0 = rdtsc();
		if (fork() == 0)
			_exit(0);
		wait(NULL);
		samples[i] = (rdtsc() - t0) / n;
	}
	r->minflt = self_minflt() - f0;
	snap(&r->after);
	munmap(g.base, g.len);
	summarize(r, REPS);
	touch_samples();
	put(r->name, "base_cycles_median", (long long)median(base, REPS));
}

/* munmap of n zero-mapped pages, per page. */
static void phase_munmap(struct result *r, long n, const char *key, int huge)
{
	struct region g;
	uint64_t t0;
	long f0 = 0, nf = 0;
	int i;

	r->name = key ? key : "munmap";
	r->pages = n;
	for (i = 0; i < REPS; i++) {
		if (i == 0)
			snap(&r->before);
		region_map(&g, n, huge);
		read_all(&g);
		if (i == 0)
			mark(r->name);
		f0 = self_minflt();
		t0 = rdtsc();
		munmap(g.base, g.len);
		samples[i] = (rdtsc() - t0) / n;
		nf += self_minflt() - f0;
	}
	snap(&r->after);
	r->minflt = nf;
	summarize(r, REPS);
}

/* sparse: one byte written every 256th page of a region, then a read scan
 * of every page; the RSS after each step is the zero page's whole story.
 * key "thp.sparse": the region is MADV_HUGEPAGE, so each write takes a
 * whole 2 MiB (the scan then faults no more). */
static void phase_sparse(struct result *r, long mib, struct snap *written,
			 const char *key)
{
	long n = mib * 256, i;
	int huge = key != NULL;
	struct region g;

	region_map(&g, huge ? (mib + 1) / 2 : n, huge);
	g.n = n;		/* the scan reads every small page */
	g.step = PAGE_SIZE;
	r->name = key ? key : "sparse";
	r->pages = n;
	snap(&r->before);
	for (i = 0; i < n; i += 256)
		g.p[i * PAGE_SIZE] = 1;
	snap(written);
	mark(r->name);
	time_and_unmap(r, &g, T_READ);
	if (huge)
		put(r->name, "anon_huge_kb_written", written->anon_huge);
	put_snap(r->name, "written", written);
	put(r->name, "memfree_used_kb_written",
	    r->before.memfree - written->memfree);
	put(r->name, "memfree_used_kb_total",
	    r->before.memfree - r->after.memfree);
}

/* thp: the faults of the small-page phases, a 2 MiB huge page at a time
 * (MADV_HUGEPAGE, aligned), per huge page: a read maps the huge zero page
 * (against 512 of read's small zero faults), a write allocates and clears
 * 2 MiB, cow writes one small page of a huge zero mapping (split), fork
 * and munmap take huge zero PMDs; then sparse over a huge region. */
static void phase_thp(struct result *rs, long n, long mib)
{
	struct snap written;
	long nh = n / 512 > 0 ? n / 512 : 1;

	phase_touch(&rs[0], "read", nh, "thp.read", 1);
	phase_touch(&rs[1], "cow", nh, "thp.cow", 1);
	phase_touch(&rs[2], "write", nh, "thp.write", 1);
	phase_fork(&rs[3], nh, "thp.fork", 1);
	phase_munmap(&rs[4], nh, "thp.munmap", 1);
	phase_sparse(&rs[5], mib, &written, "thp.sparse");
}

/* ---- vmas: a read fault at a random one of n VMAs -------------------- */

#define VMAS_STEPS	4096	/* faults timed at each n (--check: 64) */
#define MMC_PATH	"/proc/sys/vm/max_map_count"

/* A fixed pseudo-random sequence (xorshift64): every kernel draws the
 * same VMAs. */
static uint64_t rnd_state = 88172645463325252ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static long read_mmc(void)
{
	char buf[32];

	return read_file(MMC_PATH, buf, sizeof(buf)) > 0 ? atol(buf) : -1;
}

static int write_mmc(long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld\n", v);
	return write_file(MMC_PATH, buf) ? -1 : 0;
}

/* The lines of /proc/self/maps (--check: few enough for a static buffer,
 * so that counting maps nothing itself). */
static long count_vmas(void)
{
	static char maps[64 << 10];
	long n = 0;
	char *l;

	if (read_file("/proc/self/maps", maps, sizeof(maps)) < 0)
		return -1;
	for (l = maps; (l = strchr(l, '\n')); l++)
		n++;
	return n;
}

/*
 * n VMAs of one page each: one mapping, its even pages made read-only so
 * that no two neighbours can merge, with a free page on each side so that
 * neither end merges with a mapping beside it. NULL if the VMAs cannot
 * all be made.
 */
static char *map_vmas(long n)
{
	char *p = map(n + 2);
	long i;

	munmap(p, PAGE_SIZE);
	munmap(p + (n + 1) * PAGE_SIZE, PAGE_SIZE);
	p += PAGE_SIZE;
	for (i = 0; i < n; i += 2)
		if (mprotect(p + i * PAGE_SIZE, PAGE_SIZE, PROT_READ)) {
			munmap(p, n * PAGE_SIZE);
			return NULL;
		}
	return p;
}

/* --check's record of each n: VMAs made (from maps) and faults taken. */
struct vmas_fig {
	long n, made, minflt;
};
static struct vmas_fig vfig[8];
static int nvfig;

/*
 * Per step: one read of a random page, a fault in a VMA that is (for
 * n > 1, nearly always) not the last one used, so the VMA lookup misses
 * mmap_cache; then MADV_DONTNEED, untimed, empties the PTE again. An n
 * whose VMAs cannot be made (max_map_count) is vmas.N.skipped=1.
 */
static void phase_vmas_one(long n, long steps)
{
	struct result r;
	char key[32], *p;
	long i, f0, before = check_mode ? count_vmas() : 0;
	uint64_t t0, t1;

	memset(&r, 0, sizeof(r));
	snprintf(key, sizeof(key), "vmas.%ld", n);
	r.name = key;
	r.pages = n;
	p = map_vmas(n);
	if (!p) {
		put(key, "skipped", 1);
		return;
	}
	if (check_mode && nvfig < 8) {
		vfig[nvfig].n = n;
		vfig[nvfig].made = count_vmas() - before;
	}
	snap(&r.before);
	mark(key);
	f0 = self_minflt();
	for (i = 0; i < steps; i++) {
		volatile char *a = p + (rnd() % n) * PAGE_SIZE;

		t0 = rdtsc();
		(void)*a;
		t1 = rdtsc();
		samples[i] = t1 - t0;
		madvise((char *)a, PAGE_SIZE, MADV_DONTNEED);
	}
	r.minflt = self_minflt() - f0;
	snap(&r.after);
	munmap(p, n * PAGE_SIZE);
	if (check_mode && nvfig < 8)
		vfig[nvfig++].minflt = r.minflt;
	summarize(&r, steps);
	put(key, "steps", steps);
}

/*
 * Each n of list in turn. Linux's default max_map_count (65530) is below
 * the largest n: with --raise-max-map-count it is raised for the phase
 * (if allowed: root) and put back after; else that n is skipped.
 */
static void phase_vmas(const char *list, long steps)
{
	long old = read_mmc(), most = 0, n;
	const char *c;

	for (c = list; *c; c = strchr(c, ',') ? strchr(c, ',') + 1 : "")
		if (atol(c) > most)
			most = atol(c);
	/* Room for the phase's VMAs and the few the process has. */
	if (raise_mmc && old >= 0 && old < most + 64 &&
	    write_mmc(most + 64) == 0)
		put("vmas", "max_map_count_raised_from", old);
	put("vmas", "max_map_count", read_mmc());
	for (c = list; *c; c = strchr(c, ',') ? strchr(c, ',') + 1 : "") {
		n = atol(c);
		if (n > 0 && (size_t)steps <= nsamples)
			phase_vmas_one(n, steps);
	}
	if (old >= 0 && read_mmc() != old)
		write_mmc(old);
}

/* ---- swap: reclaim to a swap disk -------------------------------------- */

/* The region the swap phase writes: the memory left (MemAvailable) and
 * half of RAM more, so that a third of it or so must go to swap; less if
 * the swap free would not hold that part with a quarter to spare. */
static long swap_region_pages(void)
{
	char *mi = proc_read("/proc/meminfo", NULL);
	long long avail, total, swap;

	if (!mi)
		return 0;
	avail = proc_field(mi, NULL, "MemAvailable");
	total = proc_field(mi, NULL, "MemTotal");
	swap = proc_field(mi, NULL, "SwapFree");
	free(mi);
	if (avail <= 0 || total <= 0 || swap <= 0)
		return 0;
	if (total / 2 > swap * 3 / 4)
		total = swap * 3 / 2;
	return (avail + total / 2) / 4;
}

/* Linux reads up to 2^page-cluster pages around a swap-in (8 by default);
 * zpk reads one.  0 makes a major fault one page's read on both; the value
 * in force is reported (-1: the kernel has no such knob). */
static long swap_no_readahead(void)
{
	char buf[32];

	write_file("/proc/sys/vm/page-cluster", "0\n");
	if (read_file("/proc/sys/vm/page-cluster", buf, sizeof(buf)) < 0)
		return -1;
	return atol(buf);
}

/* One pass over the swap region: each page written with its index (out)
 * or read and checked (in), timed per page into s; the faults, the
 * vmstat counter and the wall time of the pass reported as swap.KEY.*. */
static void swap_pass(const char *key, char *p, long n, uint64_t *s,
		      int in, const char *counter)
{
	long f0 = self_majflt(), m0 = self_minflt(), bad = 0, i;
	long long c0 = proc_vmstat_read(counter), c;
	uint64_t t0, t1, ns = now_ns(), sum;
	char k[48];

	for (i = 0; i < n; i++) {
		volatile long *a = (long *)(p + i * PAGE_SIZE);

		t0 = rdtsc();
		if (in)
			bad += *a != i + 1;
		else
			*a = i + 1;
		t1 = rdtsc();
		s[i] = t1 - t0;
	}
	ns = now_ns() - ns;
	c = proc_vmstat_read(counter) - c0;
	sum = mean(s, n) * n;
	printf("swap.%s.pages=%ld\nswap.%s.ns=%llu\n", key, n, key,
	       (unsigned long long)ns);
	printf("swap.%s.majflt=%ld\nswap.%s.minflt=%ld\n", key,
	       self_majflt() - f0, key, self_minflt() - m0);
	snprintf(k, sizeof(k), "swap.%s.%s", key, counter);
	printf("%s=%lld\n", k, c);
	printf("swap.%s.cycles_mean=%llu\n", key, (unsigned long long)(sum / n));
	printf("swap.%s.cycles_median=%llu\n", key,
	       (unsigned long long)median(s, n));
	if (in)
		printf("swap.in.bad=%ld\n", bad);
	fflush(stdout);
}

/* swap: a region larger than the memory left, each page written once in
 * order: past the free memory the faults wait for reclaim (kswapd, direct
 * reclaim), whose cost is the pass's above its median (swap-out).  Then
 * each page read back in the same order: a page reclaim took is a major
 * fault (swap-in), which evicts a page read later, as any re-read of more
 * than RAM in order does under LRU.  dev: swapon(2) it first (a boot with
 * zpbench as init has no one else to).  The samples and the program are
 * mlocked, so that only the region swaps. */
static void phase_swap(const char *dev)
{
	long n;
	uint64_t *s;
	char *p;

	if (dev && swapon(dev, 0)) {
		printf("swap.skipped=swapon %s: %s\n", dev, strerror(errno));
		return;
	}
	n = swap_region_pages();
	if (n <= 0) {
		printf("swap.skipped=no swap area\n");
		return;
	}
	printf("swap.page_cluster=%ld\n", swap_no_readahead());
	s = (uint64_t *)map((n * sizeof(*s) + PAGE_SIZE - 1) / PAGE_SIZE);
	if (mlockall(MCL_CURRENT))	/* not the region, mapped after */
		printf("swap.mlockall_errno=%d\n", errno);
	p = map(n);
	mark("swap");
	swap_pass("out", p, n, s, 0, "pswpout");
	swap_pass("in", p, n, s, 1, "pswpin");
	munlockall();
	munmap(p, n * PAGE_SIZE);
	munmap(s, (n * sizeof(*s) + PAGE_SIZE - 1) / PAGE_SIZE * PAGE_SIZE);
	if (dev)
		swapoff(dev);
}

static int want(const char *only, const char *phase);

/* Every phase that --only names (all of them by default, and in --check). */
static void run_phases(struct result *rs, const char *only, long n, long mib,
		       struct snap *written)
{
	if (want(only, "read") || check_mode)
		phase_touch(&rs[0], "read", n, NULL, 0);
	if (want(only, "cow") || check_mode)
		phase_touch(&rs[1], "cow", n, NULL, 0);
	if (want(only, "write") || check_mode)
		phase_touch(&rs[2], "write", n, NULL, 0);
	if (want(only, "reread") || check_mode)
		phase_touch(&rs[3], "reread", n, NULL, 0);
	if (want(only, "fork") || check_mode)
		phase_fork(&rs[4], n, NULL, 0);
	if (want(only, "munmap") || check_mode)
		phase_munmap(&rs[5], n, NULL, 0);
	if (want(only, "sparse") || check_mode)
		phase_sparse(&rs[6], mib, written, NULL);
	if (want(only, "vmas") || check_mode)
		phase_vmas(vmas_list, check_mode ? 64 : VMAS_STEPS);
	if (want(only, "thp") && !check_mode)
		phase_thp(rs + 7, n, mib);
	if (only && want(only, "swap") && !check_mode)
		phase_swap(swap_dev);
}

/* read, cow and fork at n pages, for the per-page cost's curve over N
 * (262144 pages: the fork of a 1 GiB zero-mapped region). */
static void run_scale(long n)
{
	struct result r;
	char key[48];

	if (n <= 0 || (size_t)n > nsamples)
		return;
	memset(&r, 0, sizeof(r));
	snprintf(key, sizeof(key), "scale.read.%ld", n);
	phase_touch(&r, "read", n, key, 0);
	snprintf(key, sizeof(key), "scale.cow.%ld", n);
	phase_touch(&r, "cow", n, key, 0);
	snprintf(key, sizeof(key), "scale.fork.%ld", n);
	phase_fork(&r, n, key, 0);
}

/* zpk's /proc/sys/vm/zero_page: the bracketed name; "linux" elsewhere. */
static void read_policy(void)
{
	char buf[64], *a, *b;

	strcpy(policy, "linux");
	if (read_file("/proc/sys/vm/zero_page", buf, sizeof(buf)) < 0)
		return;
	a = strchr(buf, '[');
	b = a ? strchr(a, ']') : NULL;
	if (a && b && b - a - 1 < (long)sizeof(policy)) {
		memcpy(policy, a + 1, b - a - 1);
		policy[b - a - 1] = 0;
	}
}

static int want(const char *only, const char *phase)
{
	size_t n = strlen(phase);
	const char *s = only;

	if (!only)
		return 1;
	while ((s = strstr(s, phase))) {
		if ((s == only || s[-1] == ',') && (s[n] == ',' || !s[n]))
			return 1;
		s += n;
	}
	return 0;
}

/* ---- --check: the benchmark's own unit checks -------------------------- */

/* kB figures: exact on zpk, within Linux's RSS lag there. */
static int kb_eq(long long got, long long want)
{
	return is_zpk() ? got == want : kb_near(got, want);
}

static void check_stats(void)
{
	uint64_t odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 };

	tap_ok(median(odd, 3) == 3 && mean(odd, 3) == 3,
	       "stats: median and mean of {5,1,3} are 3");
	tap_ok(median(even, 4) == 2 && mean(even, 4) == 2,
	       "stats: median of {4,1,3,2} is 2 (mean of the middle two)");
}

static void check_touch(struct result *rs, long n)
{
	struct result *rd = &rs[0], *cw = &rs[1], *wr = &rs[2], *rr = &rs[3];
	int zp = strcmp(policy, "off") != 0;
	long long kb = n * PAGE_SIZE / 1024;

	/* Linux maps the zero page on a read fault, but a kernel may not
	 * (a sandbox's does not): there, believe the read phase's RssAnon. */
	if (!is_zpk())
		zp = rd->after.anon - rd->before.anon < kb / 2;
	zero_in_use = zp;

	tap_note("zero page in use: %s", zp ? "yes" : "no");
	tap_ok(rd->minflt == n, "read: one minor fault per page (%ld of %ld)",
	       rd->minflt, n);
	tap_ok(wr->minflt == n, "write: one minor fault per page (%ld of %ld)",
	       wr->minflt, n);
	tap_ok(rr->minflt == 0, "reread: no faults (%ld)", rr->minflt);
	tap_ok(cw->minflt == (zp ? n : 0),
	       "cow: %s fault per page after a read (%ld)",
	       zp ? "one" : "no", cw->minflt);
	tap_ok(kb_eq(wr->after.anon - wr->before.anon, kb),
	       "write: RssAnon grows by %lld kB (%lld)", kb,
	       wr->after.anon - wr->before.anon);
	tap_ok(kb_eq(cw->after.anon - cw->before.anon, zp ? kb : 0),
	       "cow: RssAnon grows by %lld kB (%lld)", zp ? kb : 0,
	       cw->after.anon - cw->before.anon);
	tap_ok(kb_eq(rd->after.anon - rd->before.anon, zp ? 0 : kb),
	       "read: RssAnon grows by %lld kB (%lld)", zp ? 0 : kb,
	       rd->after.anon - rd->before.anon);
	if (is_zpk()) {
		tap_ok(rd->after.zero - rd->before.zero == (zp ? kb : 0),
		       "read: RssZero grows by %lld kB (%lld)", zp ? kb : 0,
		       rd->after.zero - rd->before.zero);
		tap_ok(cw->after.zero - cw->before.zero == (zp ? -kb : 0),
		       "cow: RssZero falls by %lld kB (%lld)", zp ? kb : 0,
		       cw->before.zero - cw->after.zero);
	} else {
		tap_skip("read: RssZero: zpk-only");
		tap_skip("cow: RssZero: zpk-only");
	}
	tap_ok(rr->med <= rd->med && rr->med > 0,
	       "reread median (%llu) is above 0 and at most read's (%llu)",
	       (unsigned long long)rr->med, (unsigned long long)rd->med);
	tap_ok(rd->med <= rd->avg * 4 && rd->avg > 0,
	       "read: median %llu and mean %llu are both sane",
	       (unsigned long long)rd->med, (unsigned long long)rd->avg);
}

static void check_vmas(void)
{
	int made = nvfig == 3, faults = nvfig == 3;

	for (int i = 0; i < nvfig; i++) {
		tap_note("vmas: n %ld, %ld VMAs made, %ld faults in 64 steps",
			 vfig[i].n, vfig[i].made, vfig[i].minflt);
		made &= vfig[i].made == vfig[i].n;
		faults &= vfig[i].minflt == 64;
	}
	tap_ok(made, "vmas: n VMAs made at each n (1, 16, 256)");
	tap_ok(faults, "vmas: one fault per step at each n");
}

static void check_rest(struct result *fk, struct result *mu,
		       struct result *sp, struct snap *written)
{
	int zp = zero_in_use;
	long w = (sp->pages + 255) / 256;	/* pages written */

	tap_ok(fk->med > 0, "fork: %llu cycles per page",
	       (unsigned long long)fk->med);
	tap_ok(kb_eq(fk->after.anon, fk->before.anon),
	       "fork: the parent's RssAnon is unchanged (%lld -> %lld kB)",
	       fk->before.anon, fk->after.anon);
	tap_ok(mu->med > 0 && mu->minflt == 0,
	       "munmap: %llu cycles per page, no faults while unmapping",
	       (unsigned long long)mu->med);
	tap_ok(kb_eq(mu->after.anon, mu->before.anon),
	       "munmap: RssAnon back where it was (%lld -> %lld kB)",
	       mu->before.anon, mu->after.anon);
	tap_ok(kb_eq(written->anon - sp->before.anon, w * 4),
	       "sparse: writes cost %ld pages of RssAnon (%lld kB)", w,
	       written->anon - sp->before.anon);
	tap_ok(sp->minflt == sp->pages - w,
	       "sparse: the scan faults once per unwritten page (%ld)",
	       sp->minflt);
	tap_ok(kb_eq(sp->after.anon - written->anon,
		     zp ? 0 : (sp->pages - w) * 4),
	       "sparse: the scan adds %lld kB of RssAnon (%lld)",
	       zp ? 0 : (long long)(sp->pages - w) * 4,
	       sp->after.anon - written->anon);
	if (is_zpk())
		tap_ok(sp->after.zero - written->zero ==
		       (zp ? (sp->pages - w) * 4 : 0),
		       "sparse: the scan adds RssZero for the unwritten pages (%lld kB)",
		       sp->after.zero - written->zero);
	else
		tap_skip("sparse: RssZero: zpk-only");
}

int main(int argc, char **argv)
{
	struct result rs[13];
	struct snap boot, written;
	struct utsname u;
	const char *only = NULL, *scale = NULL, *c;
	const char *threads = NULL, *procs = NULL, *forks = NULL;
	long n = -1, mib = -1, i, rep = 1, smp_pages = 256, smp_rounds = 100;
	int smp_repeat = 3, c2c = 0;
	char *mi;

	/* The first line, as early as possible: the boot-time mark. */
	printf("zpbench.start=1\n");
	fflush(stdout);
	mi = proc_read("/proc/meminfo", NULL);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--check"))
			check_mode = 1;
		else if (!strcmp(argv[i], "--sparse") && i + 1 < argc)
			mib = atol(argv[++i]);
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = argv[++i];
		else if (!strcmp(argv[i], "--scale") && i + 1 < argc)
			scale = argv[++i];
		else if (!strcmp(argv[i], "--vmas") && i + 1 < argc)
			vmas_list = argv[++i];
		else if (!strcmp(argv[i], "--raise-max-map-count"))
			raise_mmc = 1;
		else if (!strcmp(argv[i], "--swapon") && i + 1 < argc)
			swap_dev = argv[++i];
		else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
			rep = atol(argv[++i]);
		else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
			threads = argv[++i];
		else if (!strcmp(argv[i], "--procs") && i + 1 < argc)
			procs = argv[++i];
		else if (!strcmp(argv[i], "--forks") && i + 1 < argc)
			forks = argv[++i];
		else if (!strcmp(argv[i], "--smp-pages") && i + 1 < argc)
			smp_pages = atol(argv[++i]);
		else if (!strcmp(argv[i], "--smp-rounds") && i + 1 < argc)
			smp_rounds = atol(argv[++i]);
		else if (!strcmp(argv[i], "--smp-repeat") && i + 1 < argc)
			smp_repeat = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--c2c"))
			c2c = 1;
		else if (!strcmp(argv[i], "--huge"))
			smp_huge();
		else if (argv[i][0] != '-')
			n = atol(argv[i]);
		else {
			fprintf(stderr, "usage: zpbench [--check] [--sparse MIB] "
				"[--only PHASES] [--scale N,N...] [--vmas N,N...] "
				"[--raise-max-map-count] [--swapon DEV] "
				"[--repeat R] [N]\n"
				"       zpbench [--threads T,T...] [--procs T,T...] "
				"[--forks T,T...] "
				"[--smp-pages P] [--smp-rounds R] "
				"[--smp-repeat K] [--huge] [--c2c]\n");
			return 2;
		}
	}
	if (n <= 0)
		n = check_mode ? 256 : 16384;
	if (mib <= 0)
		mib = check_mode ? 4 : 256;
	if (!vmas_list)
		vmas_list = check_mode ? "1,16,256" : "1,16,256,4096,65536";
	read_policy();
	uname(&u);
	if (!check_mode) {
		printf("zpbench.kernel=%s\nzpbench.release=%s\n", u.sysname,
		       u.release);
		printf("zpbench.zero_page=%s\nzpbench.pages=%ld\n", policy, n);
		printf("zpbench.sparse_mib=%ld\n", mib);
		if (mi)
			printf("boot.memtotal_kb=%lld\nboot.mem_used_kb=%lld\n",
			       proc_field(mi, NULL, "MemTotal"),
			       proc_field(mi, NULL, "MemTotal") -
			       proc_field(mi, NULL, "MemFree"));
		fflush(stdout);
	}
	free(mi);
	if (c2c && (!(threads || procs || forks) || smp_c2c()))
		return 2;
	if (threads || procs || forks) {
		int err = (threads && smp_bench(threads, SMP_THREADS, smp_pages,
						 smp_rounds, smp_repeat)) |
			  (procs && smp_bench(procs, SMP_PROCS, smp_pages,
					       smp_rounds, smp_repeat)) |
			  (forks && smp_bench(forks, SMP_FORKS, smp_pages,
					       smp_rounds, smp_repeat));

		printf("zpbench.done=%d\n", !err);
		return err ? 1 : 0;
	}
	snap(&boot);

	nsamples = n > mib * 256 ? n : mib * 256;
	for (c = scale; c && *c; c = strchr(c, ',') ? strchr(c, ',') + 1 : "")
		if ((size_t)atol(c) > nsamples)
			nsamples = atol(c);
	if (nsamples < REPS)
		nsamples = REPS;
	/* Written now, so that no phase takes a fault on its own samples. */
	samples = (uint64_t *)map((nsamples * sizeof(*samples) + PAGE_SIZE - 1) /
				  PAGE_SIZE);
	touch_samples();

	memset(rs, 0, sizeof(rs));
	memset(&written, 0, sizeof(written));
	for (; rep > 0; rep--)
		run_phases(rs, only, n, mib, &written);
	for (c = scale; c && *c && !check_mode;
	     c = strchr(c, ',') ? strchr(c, ',') + 1 : "")
		run_scale(atol(c));
	if (!check_mode) {
		printf("zpbench.done=1\n");
		return 0;
	}
	tap_note("zpbench --check: %ld pages, sparse %ld MiB, zero_page %s",
		 n, mib, policy);
	tap_plan(23);
	check_stats();
	check_touch(rs, n);
	check_rest(&rs[4], &rs[5], &rs[6], &written);
	check_vmas();
	tap_done();
}
