/* user/lib/zp.c — what the zero-page tests share: the active policy, the
 * zero page's pfn, RSS/free/fault samples, fresh anonymous mappings. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "procfs.h"
#include "ulib.h"
#include "zp.h"

#define ZP_SWITCH	"/proc/sys/vm/zero_page"
#define BLOCK		(2UL << 20)	/* one page table's reach */

const char *const zp_policy_names[3] = { "special", "refcount", "off" };

static int name_to_policy(const char *s, size_t len)
{
	int i;

	for (i = 0; i < 3; i++)
		if (strlen(zp_policy_names[i]) == len &&
		    strncmp(s, zp_policy_names[i], len) == 0)
			return i;
	return -1;
}

int zp_policy(void)
{
	char buf[256], *b, *e;
	int p;

	if (read_file(ZP_SWITCH, buf, sizeof(buf)) > 0 &&
	    (b = strchr(buf, '[')) && (e = strchr(b, ']')) &&
	    (p = name_to_policy(b + 1, e - b - 1)) >= 0)
		return p;
	if (!is_zpk() || read_file("/proc/cmdline", buf, sizeof(buf)) < 0)
		return ZP_SPECIAL;
	for (b = buf; (b = strstr(b, "zero_page=")); b++) {
		if (b != buf && b[-1] != ' ')
			continue;
		b += strlen("zero_page=");
		p = name_to_policy(b, strcspn(b, " \n"));
		return p >= 0 ? p : ZP_SPECIAL;
	}
	return ZP_SPECIAL;
}

const char *zp_policy_name(void)
{
	return zp_policy_names[zp_policy()];
}

int zp_set_policy(const char *name)
{
	return write_file(ZP_SWITCH, name) ? -1 : 0;
}

int zp_can_switch(void)
{
	return access(ZP_SWITCH, W_OK) == 0;
}

long long zp_zero_pfn(void)
{
	static long long pfn = -2;

	if (pfn == -2)
		pfn = zero_page_pfn();
	return pfn;
}

static int mode = -1, sure;
static const char *why = "";

/* Linux: read one fresh page and see what pagemap says it maps. */
static void probe_mode(void)
{
	uint64_t e = 0;
	long long fl;
	char *p;

	if (is_zpk()) {
		mode = zp_policy();
		sure = 1;
		why = "zpk";
		return;
	}
	mode = ZP_SPECIAL;
	p = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	peek(p);
	if (pagemap_read(0, (unsigned long)p, &e, 1) != 1 || !PM_PFN(e) ||
	    (fl = kpageflags(PM_PFN(e))) < 0) {
		why = "Linux hides pfns and kpageflags from non-root: cannot "
		      "tell whether read faults map the zero page";
	} else if (fl >> KPF_ZERO_PAGE & 1) {
		sure = 1;
		why = "this Linux maps the zero page on read faults";
	} else {
		mode = ZP_OFF;
		sure = 1;
		why = "this Linux maps a fresh page on read faults (no zero "
		      "page): checked as zero_page=off";
	}
	munmap(p, PAGE_SIZE);
}

int zp_mode(void)
{
	if (mode < 0)
		probe_mode();
	return mode;
}

int zp_sure(void)
{
	zp_mode();
	return sure;
}

const char *zp_why(void)
{
	zp_mode();
	return why;
}

void zp_note_mode(void)
{
	tap_note("policy %s, expecting %s (%s)", zp_policy_name(),
		 zp_policy_names[zp_mode()], zp_why());
}

/* A check that counts only when checkable: else a skip saying why not. */
static int vcheck(int checkable, const char *why_not, int cond,
		  const char *fmt, va_list ap)
{
	char buf[400];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (checkable)
		return tap_ok(cond, "%s", buf);
	tap_skip("%s: %s", buf, why_not);
	return 1;
}

int zp_ok(int cond, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vcheck(zp_sure(), zp_why(), cond, fmt, ap);
	va_end(ap);
	return r;
}

int zp_zpk_ok(int cond, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vcheck(is_zpk(), "zpk-only", cond, fmt, ap);
	va_end(ap);
	return r;
}

#define CHUNK	512

/* Pre-touched by the first zp_sample: reading /proc or pagemap into them
 * later adds no RSS, and no stack page grows, inside what a test measures. */
static char status_buf[1 << 14], vmstat_buf[1 << 15];
static uint64_t pm_buf[CHUNK];

/* Faults in every page of the program's read-only file mappings (text,
 * rodata): code run for the first time later must not add RssFile. */
static void prefault_text(void)
{
	size_t len;
	char *maps = proc_read("/proc/self/maps", &len), *cur = maps;
	struct proc_map m;
	volatile char sink = 0;

	while (maps && proc_maps_next(&cur, &m))
		if (m.name[0] == '/' && m.perms[1] != 'w')
			for (unsigned long a = m.start; a < m.end; a += PAGE_SIZE)
				sink += *(volatile char *)a;
	free(maps);
	(void)sink;
}

/* Faults in the next 16 kB of stack below the caller's: library code a
 * test calls between samples (qsort, printf) must not grow it there. */
static void __attribute__((noinline)) prefault_stack(void)
{
	volatile char pad[16384];

	for (size_t i = 0; i < sizeof(pad); i += PAGE_SIZE)
		pad[i] = 0;
}

static void pretouch(void)
{
	static int done;

	if (done++)
		return;
	memset(status_buf, 0, sizeof(status_buf));
	memset(vmstat_buf, 0, sizeof(vmstat_buf));
	memset(pm_buf, 0, sizeof(pm_buf));
	zp_zero_pfn();		/* found once: it maps and unmaps a probe page */
	prefault_text();
	prefault_stack();
}

long long zp_vmstat(const char *name)
{
	if (read_file("/proc/vmstat", vmstat_buf, sizeof(vmstat_buf)) < 0)
		return -1;
	return proc_vmstat(vmstat_buf, name);
}

void zp_sample(struct zp_sample *s)
{
	struct rusage ru;
	long long rc;

	pretouch();
	memset(s, 0, sizeof(*s));
	getrusage(RUSAGE_SELF, &ru);
	s->minflt = ru.ru_minflt;
	if (read_file("/proc/self/status", status_buf, sizeof(status_buf)) > 0) {
		s->anon = proc_field(status_buf, NULL, "RssAnon");
		s->file = proc_field(status_buf, NULL, "RssFile");
		s->shmem = proc_field(status_buf, NULL, "RssShmem");
		s->zero = proc_field(status_buf, NULL, "RssZero");
	}
	s->refcount_ops = zp_vmstat("zero_page_refcount_ops");
	s->map = proc_vmstat(vmstat_buf, "zero_page_map");
	rc = proc_vmstat(vmstat_buf, "nr_zero_page_refcount");
	s->zp_refcount = rc >= 0 ? rc :
			 proc_vmstat(vmstat_buf, "zero_page_refcount");
	s->free = sysinfo_free_pages();
}

void zp_baseline(struct zp_sample *s)
{
	zp_sample(s);
	zp_sample(s);
}

char *zp_map(size_t n, int prot)
{
	char *raw, *p;
	size_t head;

	if (n + 1 > BLOCK / PAGE_SIZE)
		return NULL;
	raw = mmap(NULL, 2 * BLOCK, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		return NULL;
	p = (char *)(((unsigned long)raw + BLOCK - 1) & ~(BLOCK - 1));
	head = p - raw;
	if (head)
		munmap(raw, head);
	munmap(p + (n + 1) * PAGE_SIZE, 2 * BLOCK - head -
	       (n + 1) * PAGE_SIZE);
	poke(p + n * PAGE_SIZE, 1);	/* the anchor: page table now exists */
	if (prot != (PROT_READ | PROT_WRITE) &&
	    mprotect(p, n * PAGE_SIZE, prot) < 0) {
		munmap(p, (n + 1) * PAGE_SIZE);
		return NULL;
	}
	return p;
}

void zp_unmap(char *p, size_t n)
{
	munmap(p, (n + 1) * PAGE_SIZE);
}

unsigned long zp_read(const char *p, size_t n)
{
	unsigned long sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += peek(p + i * PAGE_SIZE);
	return sum;
}

void zp_write(char *p, size_t n, int v)
{
	size_t i;

	for (i = 0; i < n; i++)
		poke(p + i * PAGE_SIZE, v);
}

/* Entries of a pagemap chunk at a time: no malloc while measuring. */

long zp_count_zero(const char *p, size_t n, long *excl)
{
	long long zpfn = zp_zero_pfn();
	uint64_t *e = pm_buf;
	long count = 0, i, got;
	size_t done;

	if (excl)
		*excl = 0;
	for (done = 0; done < n; done += got) {
		got = pagemap_read(0, (unsigned long)p + done * PAGE_SIZE, e,
				   n - done < CHUNK ? n - done : CHUNK);
		if (got <= 0)
			return -1;
		for (i = 0; i < got; i++) {
			if (zpfn >= 0 && (e[i] & PM_PRESENT) &&
			    PM_PFN(e[i]) == (uint64_t)zpfn)
				count++;
			if (excl && (e[i] & PM_EXCLUSIVE))
				(*excl)++;
		}
	}
	return count;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Present pages with a pfn no other page of the range has (n <= CHUNK). */
long zp_count_distinct(const char *p, size_t n)
{
	uint64_t *e = pm_buf;
	long got, i, count = 0, k = 0;

	if (n > CHUNK)
		return -1;
	got = pagemap_read(0, (unsigned long)p, e, n);
	if (got != (long)n)
		return -1;
	for (i = 0; i < got; i++)
		if ((e[i] & PM_PRESENT) && PM_PFN(e[i]))
			e[k++] = PM_PFN(e[i]);
	qsort(e, k, sizeof(*e), cmp_u64);
	for (i = 0; i < k; i++)
		if ((i == 0 || e[i] != e[i - 1]) &&
		    (i == k - 1 || e[i] != e[i + 1]))
			count++;
	return count;
}

int zp_is_zero(const void *p, size_t len)
{
	const unsigned char *c = p;
	size_t i;

	for (i = 0; i < len; i++)
		if (c[i])
			return 0;
	return 1;
}

void zp_check_read(const struct zp_sample *a, const struct zp_sample *b,
		   long n, const char *what)
{
	int m = zp_mode();
	long long kb = n * 4LL;
	long long want_anon = m == ZP_OFF ? kb : 0;
	long long want_file = m == ZP_REFCOUNT ? kb : 0;
	long long want_zero = m == ZP_OFF ? 0 : kb;
	long want_free = m == ZP_OFF ? -n : 0;

	zp_ok(kb_near(b->anon - a->anon, want_anon), "%s: RssAnon %+lld kB "
	      "(want %+lld)", what, b->anon - a->anon, want_anon);
	zp_ok(kb_near(b->file - a->file, want_file), "%s: RssFile %+lld kB "
	      "(want %+lld)", what, b->file - a->file, want_file);
	zp_zpk_ok(a->zero >= 0 && b->zero - a->zero == want_zero, "%s: "
		  "RssZero %+lld kB (want %+lld; %lld kB)", what,
		  b->zero - a->zero, want_zero, b->zero);
	zp_zpk_ok(b->free - a->free == want_free, "%s: free pages %+ld "
		  "(want %+ld)", what, b->free - a->free, want_free);
}

void zp_check_pfns(const char *p, long n, const char *what)
{
	long zero, excl, distinct;

	if (zp_mode() == ZP_OFF) {
		distinct = zp_count_distinct(p, n);
		zp_ok(distinct == n, "%s: %ld pages of their own, all pfns "
		      "distinct (%ld)", what, n, distinct);
		return;
	}
	zero = zp_count_zero(p, n, &excl);
	zp_ok(zp_zero_pfn() >= 0 && zero == n && excl == 0, "%s: all %ld "
	      "pages map the zero pfn %#llx (%ld do), none exclusive (%ld "
	      "are)", what, n, zp_zero_pfn(), zero, excl);
}

char *zp_begin(int plan, size_t n)
{
	char *p;

	need_proc();
	tap_plan(plan);
	zp_note_mode();
	p = zp_map(n, PROT_READ | PROT_WRITE);
	if (!tap_ok(p != NULL, "map %zu fresh pages", n))
		tap_done();
	return p;
}
