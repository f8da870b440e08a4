/* user/tests/thp_collapse.c — MADV_COLLAPSE (Linux 6.1's madvise_collapse):
 * 2 MiB of 4 KiB pages, some written, some read (zero pages), some never
 * touched, become one THP with the same contents (AnonHugePages 2048 kB,
 * RssAnon + the 4 KiB pages that had none, 512 consecutive pfns,
 * thp_collapse_alloc); a huge PMD already is success; a PTE-mapped THP
 * collapses again; after fork, a range no PTE of which is writable is
 * EINVAL, one with a writable PTE collapses and the child keeps its
 * pages; a thread's writes meanwhile are never lost. Errors as Linux's: nothing mapped, MADV_NOHUGEPAGE, read-only,
 * a range inside one 2 MiB block (EINVAL), an unaligned range holding
 * no whole block (0), a hole at the end (ENOMEM). Skips where the
 * kernel has no MADV_COLLAPSE (Linux before 6.1) or no free 2 MiB. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procfs.h"
#include "ulib.h"

#define PAGE	4096UL
#define NPAGES	(HPAGE_SIZE / PAGE)

/* Page i's byte: written pages i % 3 == 0 of the first 384, read pages
 * i % 3 == 1, the rest untouched. */
static char pat(unsigned long i)
{
	return i < 384 && i % 3 == 0 ? (char)(i | 1) : 0;
}

/* 2 MiB, aligned, mapped with 4 KiB pages (MADV_NOHUGEPAGE while they
 * fault), then allowed THP again: NULL if mmap or madvise failed. */
static char *small_pages(void)
{
	char *p = huge_area(HPAGE_SIZE);
	volatile char sink = 0;

	if (!p || madvise(p, HPAGE_SIZE, MADV_NOHUGEPAGE))
		return NULL;
	for (unsigned long i = 0; i < 384; i++)
		if (i % 3 == 0)
			memset(p + i * PAGE, pat(i), PAGE);
		else if (i % 3 == 1)
			sink += p[i * PAGE];
	(void)sink;
	return madvise(p, HPAGE_SIZE, MADV_HUGEPAGE) ? NULL : p;
}

/* Pages of p (2 MiB) whose bytes differ from pat. */
static long differ(const char *p)
{
	long bad = 0;

	for (unsigned long i = 0; i < NPAGES; i++)
		for (unsigned long j = 0; j < PAGE; j += 512)
			if (p[i * PAGE + j] != pat(i)) {
				bad++;
				break;
			}
	return bad;
}

static void test_collapse(void)
{
	long long zero = self_kb("RssZero");
	char *p = small_pages();
	long long anon = self_kb("RssAnon");
	long long vma_anon = p ? smaps_kb(p, "Anonymous") : -1;
	long long allocs = proc_vmstat_read("thp_collapse_alloc");
	int r;

	tap_ok(p && smaps_kb(p, "AnonHugePages") == 0,
	       "2 MiB of 4 KiB pages: AnonHugePages %lld kB",
	       p ? smaps_kb(p, "AnonHugePages") : -1);
	r = p ? madvise(p, HPAGE_SIZE, MADV_COLLAPSE) : -1;
	tap_ok(r == 0, "MADV_COLLAPSE of it: %d (errno %d)", r, r ? errno : 0);
	tap_ok(p && smaps_kb(p, "AnonHugePages") == 2048,
	       "... one THP now: AnonHugePages %lld kB (want 2048)",
	       p ? smaps_kb(p, "AnonHugePages") : -1);
	tap_ok(p && differ(p) == 0, "... with the same contents: written, "
	       "read and untouched pages (%ld differ)", p ? differ(p) : -1);
	tap_ok(kb_near(self_kb("RssAnon") - anon, 2048 - vma_anon),
	       "... RssAnon +%lld kB: the pages that had none (want %lld)",
	       self_kb("RssAnon") - anon, 2048 - vma_anon);
	tap_ok(self_kb("RssZero") == zero, "... its zero PTEs are gone: "
	       "RssZero %lld kB as before the reads (zpk; -1 on Linux)",
	       self_kb("RssZero"));
	tap_ok(p && pagemap_one_block(p, NPAGES),
	       "... pagemap: 512 present pages, consecutive pfns");
	tap_ok(proc_vmstat_read("thp_collapse_alloc") == allocs + 1,
	       "... thp_collapse_alloc +%lld (want 1)",
	       proc_vmstat_read("thp_collapse_alloc") - allocs);
	anon = self_kb("RssAnon");
	if (p)
		memset(p + 500 * PAGE, 5, PAGE);
	tap_ok(p && self_kb("RssAnon") == anon && p[500 * PAGE] == 5,
	       "... writable: a write costs no page (RssAnon %+lld kB)",
	       self_kb("RssAnon") - anon);
	if (p)
		memset(p + 500 * PAGE, 0, PAGE);
	r = p ? madvise(p, HPAGE_SIZE, MADV_COLLAPSE) : -1;
	tap_ok(r == 0, "MADV_COLLAPSE of a huge PMD: %d (errno %d)", r,
	       r ? errno : 0);
	/* mprotect of 4 KiB and back splits the PMD: a PTE-mapped THP. */
	if (p) {
		mprotect(p + PAGE, PAGE, PROT_READ);
		mprotect(p + PAGE, PAGE, PROT_READ | PROT_WRITE);
	}
	tap_ok(p && smaps_kb(p, "AnonHugePages") == 0,
	       "mprotect splits it: AnonHugePages %lld kB",
	       p ? smaps_kb(p, "AnonHugePages") : -1);
	anon = self_kb("RssAnon");
	r = p ? madvise(p, HPAGE_SIZE, MADV_COLLAPSE) : -1;
	tap_ok(r == 0 && smaps_kb(p, "AnonHugePages") == 2048 &&
	       differ(p) == 0 && self_kb("RssAnon") == anon,
	       "the PTE-mapped THP collapses into a new one: %d (errno %d), "
	       "contents kept, RssAnon %+lld kB", r, r ? errno : 0,
	       self_kb("RssAnon") - anon);
	if (p)
		munmap(p, HPAGE_SIZE);
}

/* Linux 6.1 collapses a range only if one of its PTEs is writable
 * (SCAN_PAGE_RO), as zpk; later Linux collapses read-only ranges too. */
static int ro_collapses(int r)
{
	return r == 0 && !is_zpk();
}

/* After fork every PTE is read-only: no range to write, EINVAL (the
 * kselftest's "fully shared"); once the parent writes one page, the
 * collapse copies the shared pages and the child keeps its own. */
static void test_fork(void)
{
	char *p = small_pages();
	int fds[2], st = -1, r, e;
	pid_t pid;

	if (!p || pipe(fds)) {
		tap_ok(0, "a 2 MiB area and a pipe");
		return;
	}
	pid = fork();
	if (pid == 0) {
		char c;

		close(fds[1]);
		r = read(fds[0], &c, 1);
		_exit(r == 0 && differ(p) == 0 ? 0 : 1);
	}
	close(fds[0]);
	r = madvise(p, HPAGE_SIZE, MADV_COLLAPSE);
	e = errno;
	tap_ok((r == -1 && e == EINVAL) || ro_collapses(r),
	       "after fork, no writable PTE: MADV_COLLAPSE %d (errno %d, want "
	       "EINVAL as Linux 6.1)", r, r ? e : 0);
	p[0] = 7;	/* a COW: one PTE of the parent's writable */
	r = madvise(p, HPAGE_SIZE, MADV_COLLAPSE);
	e = errno;
	tap_ok(r == 0 && smaps_kb(p, "AnonHugePages") == 2048,
	       "with one written page it collapses: %d (errno %d)", r,
	       r ? e : 0);
	memset(p + 3 * PAGE, 9, PAGE);
	close(fds[1]);
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "the child's pages are still the old ones (status %#x)", st);
	tap_ok(p[0] == 7 && p[3 * PAGE] == 9 && p[6 * PAGE] == pat(6),
	       "the parent's THP has its writes and the rest");
	munmap(p, HPAGE_SIZE);
}

/* The writer: bumps a counter in each page but page 1 in turn, and
 * checks that each still holds what it wrote last (a write lost to a
 * collapse's copy would show). */
struct writer {
	volatile char *p;
	volatile int stop;
	long rounds, lost;
};

static void *write_pages(void *arg)
{
	struct writer *w = arg;
	unsigned char last[NPAGES];

	for (unsigned long i = 0; i < NPAGES; i++)
		last[i] = (unsigned char)pat(i);
	while (!w->stop) {
		for (unsigned long i = 2; i < NPAGES; i++) {
			volatile char *c = w->p + i * PAGE + 8;

			w->lost += (unsigned char)*c != last[i];
			*c = (char)++last[i];
		}
		w->rounds++;
	}
	return NULL;
}

/* MADV_COLLAPSE of p's 2 MiB, again while EAGAIN (Linux's answer when
 * the writer holds a page's lock or LRU isolation meanwhile). */
static int collapse_busy(char *p)
{
	int r, tries = 0;

	while ((r = madvise(p, HPAGE_SIZE, MADV_COLLAPSE)) && errno == EAGAIN &&
	       ++tries < 100)
		sched_yield();
	return r;
}

/* MADV_COLLAPSE while another thread writes the range: the split
 * (mprotect of page 1) and collapse again, rounds times; no write is
 * lost, and the range ends huge. */
static void test_threads(void)
{
	struct writer w = { .p = small_pages() };
	int bad = 0, rounds = 8;
	pthread_t t;

	if (!w.p || pthread_create(&t, NULL, write_pages, &w)) {
		tap_ok(0, "a 2 MiB area and a writer thread");
		return;
	}
	for (int i = 0; i <= rounds; i++) {
		long seen = w.rounds;

		bad += collapse_busy((char *)w.p) != 0;
		if (i == rounds)
			break;
		mprotect((char *)w.p + PAGE, PAGE, PROT_READ);
		mprotect((char *)w.p + PAGE, PAGE, PROT_READ | PROT_WRITE);
		while (w.rounds < seen + 2)
			sched_yield();
	}
	w.stop = 1;
	pthread_join(t, NULL);
	tap_ok(!bad && !w.lost && w.rounds >= 2 * rounds &&
	       smaps_kb((char *)w.p, "AnonHugePages") == 2048,
	       "%d collapses while a thread writes every page: %d failed, "
	       "%ld writes lost in %ld rounds", rounds + 1, bad, w.lost,
	       w.rounds);
	munmap((char *)w.p, HPAGE_SIZE);
}

static void expect(int r, int want, const char *what)
{
	int e = errno;

	tap_ok(want ? r == -1 && e == want : r == 0,
	       "MADV_COLLAPSE %s: %d (errno %d, want %d)", what, r,
	       r ? e : 0, want);
}

static void test_errors(void)
{
	char *p = huge_area(2 * HPAGE_SIZE), *q = small_pages();
	int r;

	if (!p || !q) {
		tap_ok(0, "two areas to collapse");
		return;
	}
	expect(madvise(p, HPAGE_SIZE, MADV_COLLAPSE), EINVAL,
	       "of nothing mapped yet");
	p[0] = 1;
	expect(madvise(p + PAGE, HPAGE_SIZE, MADV_COLLAPSE), 0,
	       "of an unaligned range with no whole block in it");
	expect(madvise(q + PAGE, 2 * PAGE, MADV_COLLAPSE), EINVAL,
	       "inside one 2 MiB block");
	munmap(p + HPAGE_SIZE, HPAGE_SIZE);
	expect(madvise(p, HPAGE_SIZE + PAGE, MADV_COLLAPSE), ENOMEM,
	       "of a range that ends in a hole");
	madvise(q, HPAGE_SIZE, MADV_NOHUGEPAGE);
	expect(madvise(q, HPAGE_SIZE, MADV_COLLAPSE), EINVAL,
	       "under MADV_NOHUGEPAGE");
	madvise(q, HPAGE_SIZE, MADV_HUGEPAGE);
	mprotect(q, HPAGE_SIZE, PROT_READ);
	r = madvise(q, HPAGE_SIZE, MADV_COLLAPSE);
	if (ro_collapses(r))
		tap_ok(1, "MADV_COLLAPSE of read-only PTEs: 0 (Linux after "
		       "6.1)");
	else
		expect(r, EINVAL, "of read-only PTEs");
	tap_ok((smaps_kb(q, "AnonHugePages") == 0 || ro_collapses(r)) &&
	       differ(q) == 0, "... they stay as they were");
	munmap(p, HPAGE_SIZE);
	munmap(q, HPAGE_SIZE);
}

int main(void)
{
	char *p;

	need_proc();
	p = small_pages();
	if (!p || (madvise(p, HPAGE_SIZE, MADV_COLLAPSE) &&
		   (errno == EINVAL || errno == ENOMEM) && !is_zpk())) {
		tap_plan(1);
		tap_skip("no MADV_COLLAPSE here, or no free 2 MiB (errno %d)",
			 errno);
		tap_done();
	}
	munmap(p, HPAGE_SIZE);
	tap_plan(24);
	test_collapse();
	test_fork();
	test_threads();
	test_errors();
	tap_done();
}
