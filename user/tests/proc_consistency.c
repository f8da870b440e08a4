/* user/tests/proc_consistency.c — /proc files agree with each other and
 * with what we did: smaps vs status vs statm, pagemap, kpageflags/count. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procfs.h"
#include "ulib.h"

#define NP 16	/* pages of the pagemap check */

/* Read into buffers touched beforehand, so reading /proc adds no RSS
 * between the files it compares. */
static char smaps[1 << 18], maps[1 << 16], status[1 << 14];

static void parse_checks(void)
{
	struct proc_stat st;
	long long total, freem, v;
	char *t;
	int r;

	r = proc_stat_read(0, &st);
	tap_ok(r == 0 && st.pid == getpid() &&
	       st.ppid == getppid() && strcmp(st.comm, "proc_consistenc") == 0
	       && st.minflt > 0, "/proc/self/stat: pid %d ppid %d comm (%s) "
	       "state %c minflt %lu", st.pid, st.ppid, st.comm, st.state,
	       st.minflt);
	total = proc_kb("/proc/meminfo", "MemTotal");
	freem = proc_kb("/proc/meminfo", "MemFree");
	tap_ok(total > 0 && freem > 0 && freem <= total, "/proc/meminfo: "
	       "MemFree %lld <= MemTotal %lld kB", freem, total);
	t = proc_read("/proc/vmstat", NULL);
	v = t ? proc_vmstat(t, "pgfault") : -1;
	tap_ok(v > 0 && proc_vmstat(t, "nr_free_pages") > 0 &&
	       proc_vmstat(t, "no_such_counter") == -1, "/proc/vmstat: "
	       "pgfault %lld, nr_free_pages present", v);
	free(t);
}

static void rss_checks(void)
{
	long long sum = 0, rss, vmrss, vmsize;
	int entries = 0, maps_entries = 0;
	struct proc_statm sm;
	struct proc_map m;
	char *cur, *zp;
	int r;

	/* Some read-faulted pages: zero-page PTEs, which under zpk's
	 * zero_page=refcount count in VmRSS (RssFile) and so in smaps too. */
	zp = mmap(NULL, 16 * PAGE_SIZE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		  -1, 0);
	for (r = 0; zp != MAP_FAILED && r < 16; r++)
		peek(zp + r * PAGE_SIZE);
	memset(smaps, 1, sizeof(smaps));
	memset(maps, 1, sizeof(maps));
	memset(status, 1, sizeof(status));
	read_file("/proc/self/smaps", smaps, sizeof(smaps));
	read_file("/proc/self/maps", maps, sizeof(maps));
	read_file("/proc/self/status", status, sizeof(status));
	for (cur = smaps; proc_maps_next(&cur, &m); entries++) {
		rss = proc_field(m.fields, m.fields_end, "Rss");
		sum += rss > 0 ? rss : 0;
	}
	vmrss = proc_field(status, NULL, "VmRSS");
	tap_ok(vmrss > 0 && kb_near(sum, vmrss), "smaps Rss over %d "
	       "mappings sums to status VmRSS (%lld kB, VmRSS %lld kB)",
	       entries, sum, vmrss);
	tap_ok(proc_field(status, NULL, "RssAnon") +
	       proc_field(status, NULL, "RssFile") +
	       proc_field(status, NULL, "RssShmem") == vmrss,
	       "VmRSS = RssAnon + RssFile + RssShmem");
	for (cur = maps; proc_maps_next(&cur, &m);)
		maps_entries++;
	tap_ok(entries >= 3 && maps_entries == entries, "maps and smaps list "
	       "the same %d mappings (%d)", entries, maps_entries);

	vmrss = self_kb("VmRSS");
	vmsize = self_kb("VmSize");
	memset(&sm, 0, sizeof(sm));
	r = proc_statm_read(0, &sm);
	tap_ok(r == 0 && kb_near(sm.resident * 4, vmrss)
	       && sm.size * 4 == vmsize, "statm agrees with status: resident "
	       "%ld pages (VmRSS %lld kB), size %ld (VmSize %lld kB)",
	       sm.resident, vmrss, sm.size, vmsize);
	if (zp != MAP_FAILED)
		munmap(zp, 16 * PAGE_SIZE);
}

/* zpk: the pages kpageflags marks BUDDY are the free pages, as many as
 * nr_free_pages says (give or take the few this reading allocates; one
 * freed page alone cannot be watched: the next allocation takes it). */
static void check_buddy_count(void)
{
	static uint64_t fl[4096];
	long long free0 = -1, buddy = 0, pfn = 0, n;
	size_t len;
	char *vm = proc_read("/proc/vmstat", &len);

	if (vm) {
		free0 = proc_vmstat(vm, "nr_free_pages");
		free(vm);
	}
	while ((n = kpage_read("/proc/kpageflags", pfn, fl, 4096)) > 0) {
		for (long i = 0; i < n; i++)
			buddy += fl[i] >> KPF_BUDDY & 1;
		pfn += n;
	}
	tap_ok(free0 > 0 && buddy <= free0 + 8 && buddy + 8 >= free0,
	       "kpageflags marks the free pages BUDDY: %lld pages, "
	       "nr_free_pages %lld", buddy, free0);
}

/* Touch pages 0, 2, 3, 7 and 15; pagemap must show exactly those. */
static void pagemap_checks(void)
{
	static const int touched = 1 << 0 | 1 << 2 | 1 << 3 | 1 << 7 | 1 << 15;
	int i, ok = 1, pok = 1, got;
	long long fl, cnt;
	uint64_t e[NP], pfn;
	char *p;

	p = mmap(NULL, NP * PAGE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (i = 0; i < NP; i++)
		if (touched >> i & 1)
			poke(p + i * PAGE_SIZE, 1);
	got = pagemap_read(0, (unsigned long)p, e, NP);
	for (i = 0; got == NP && i < NP; i++) {
		ok &= !!(e[i] & PM_PRESENT) == (touched >> i & 1);
		if (e[i] & PM_PRESENT)
			pok &= !(e[i] & PM_FILE) && (e[i] & PM_EXCLUSIVE);
	}
	tap_ok(got == NP && ok, "pagemap: present bits are exactly the pages "
	       "touched in a fresh mapping");
	tap_ok(got == NP && pok, "pagemap: they are anonymous (no bit 61) and "
	       "exclusive (bit 56)");

	pfn = PM_PFN(e[0]);
	fl = pfn ? kpageflags(pfn) : -1;
	if (fl < 0) {
		tap_skip("kpageflags: no pfn or no /proc/kpageflags (Linux "
			 "needs root)");
		tap_skip("kpageflags of a freed page: needs kpageflags");
		munmap(p, NP * PAGE_SIZE);
		return;
	}
	cnt = kpagecount(pfn);
	tap_ok((fl >> KPF_ANON & 1) && cnt == 1, "kpageflags marks our "
	       "page ANON (%#llx), kpagecount 1 (%lld)", fl, cnt);
	munmap(p, NP * PAGE_SIZE);
	fl = kpageflags(pfn);
	if (is_zpk())
		check_buddy_count();
	else
		tap_skip("freed page is BUDDY: zpk-only, Linux first keeps it "
			 "on a per-CPU list (flags now %#llx)", fl);
}

struct cow_report {
	uint64_t pfn_before, pfn_after;
	long long cnt_before, cnt_after, cnt_old;
};

static uint64_t pfn_of(void *p)
{
	uint64_t e = 0;

	pagemap_read(0, (unsigned long)p, &e, 1);
	return e & PM_PRESENT ? PM_PFN(e) : 0;
}

/* One page shared by fork: kpagecount 2 in both; after the child writes,
 * the child has a new page and each of the two pages counts 1. */
static void cow_checks(void)
{
	long long pcnt_before, pcnt_after;
	int res[2], go[2], st = -1;
	struct cow_report r;
	uint64_t ppfn;
	char *p, c;
	pid_t pid;

	p = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	poke(p, 1);
	ppfn = pfn_of(p);
	if (!ppfn || kpagecount(ppfn) < 0) {
		tap_skip("kpagecount of a COW page: no pfn or no "
			 "/proc/kpagecount (Linux needs root)");
		munmap(p, PAGE_SIZE);
		return;
	}
	pipe(res);
	pipe(go);
	pid = fork();
	if (pid == 0) {
		r.pfn_before = pfn_of(p);
		r.cnt_before = kpagecount(r.pfn_before);
		write(res[1], &r, sizeof(r));
		read(go[0], &c, 1);
		poke(p, 2);
		r.pfn_after = pfn_of(p);
		r.cnt_after = kpagecount(r.pfn_after);
		r.cnt_old = kpagecount(r.pfn_before);
		write(res[1], &r, sizeof(r));
		_exit(0);
	}
	memset(&r, 0, sizeof(r));
	read(res[0], &r, sizeof(r));
	pcnt_before = kpagecount(ppfn);
	write(go[1], "g", 1);
	read(res[0], &r, sizeof(r));
	pcnt_after = kpagecount(ppfn);
	waitpid(pid, &st, 0);
	tap_ok(r.pfn_before == ppfn && r.cnt_before == 2 && pcnt_before == 2,
	       "after fork the page is shared: same pfn, kpagecount 2 in "
	       "child (%lld) and parent (%lld)", r.cnt_before, pcnt_before);
	tap_ok(st == 0 && r.pfn_after != ppfn && r.cnt_after == 1 &&
	       r.cnt_old == 1 && pcnt_after == 1, "after the child's write: "
	       "a new page (count %lld), the old one counts %lld (parent "
	       "sees %lld)", r.cnt_after, r.cnt_old, pcnt_after);
	munmap(p, PAGE_SIZE);
	close(res[0]);
	close(res[1]);
	close(go[0]);
	close(go[1]);
}

/* zpk's /proc/sys/vm/zero_page ("[special] refcount off"), or "" . */
static const char *read_policy(void)
{
	static char buf[64];

	if (read_file("/proc/sys/vm/zero_page", buf, sizeof(buf)) < 0)
		buf[0] = 0;
	return buf;
}

/* A read of fresh anonymous memory maps the zero page (the pfn that
 * kpageflags flags ZERO_PAGE) and adds nothing to RssAnon; a kernel that
 * maps a new page instead (this Linux host does) must count it. */
static void zero_page_checks(void)
{
	long long zpfn = zero_page_pfn(), a0, a1;
	uint64_t pfn;
	char *p;

	if (zpfn < 0) {
		tap_skip("zero page: no kpageflags, or no page flagged "
			 "ZERO_PAGE (zero_page=off?)");
		tap_skip("RSS of a read fault: needs the zero page's pfn");
		return;
	}
	p = mmap(NULL, NP * PAGE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	a0 = self_kb("RssAnon");
	peek(p);
	a1 = self_kb("RssAnon");
	pfn = pfn_of(p);
	if (is_zpk() && !strstr(read_policy(), "[off]"))
		tap_ok(pfn == (uint64_t)zpfn, "a read fault maps the zero page "
		       "(pfn %#llx, zero page %#llx)",
		       (unsigned long long)pfn, zpfn);
	else if (pfn == (uint64_t)zpfn)
		tap_ok(1, "a read fault maps the zero page (pfn %#llx)",
		       (unsigned long long)pfn);
	else
		tap_skip("read fault maps the zero page: this kernel maps a "
			 "new page (zero_page=off, or this Linux; pfn %#llx, "
			 "zero page %#llx)", (unsigned long long)pfn, zpfn);
	tap_ok(pfn == (uint64_t)zpfn ? a1 == a0 : kb_near(a1, a0 + 4),
	       "RssAnon counts the read-faulted page only if it is not the "
	       "zero page (%+lld kB)", a1 - a0);
	munmap(p, NP * PAGE_SIZE);
}

int main(void)
{
	need_proc();
	tap_plan(15);
	parse_checks();
	rss_checks();
	pagemap_checks();
	cow_checks();
	zero_page_checks();
	tap_done();
}
