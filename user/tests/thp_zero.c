/* user/tests/thp_zero.c — the huge zero page: a sparse read of 256 MiB
 * under MADV_HUGEPAGE maps it 2 MiB at a time (one fault per 2 MiB, no
 * RSS; on zpk RssZero 256 MiB in 4 KiB units), a write splits one PMD
 * and copies 4 KiB, fork shares it, mprotect keeps it read-only,
 * /proc/self/mem and pagemap see it, MADV_DONTNEED and munmap drop it.
 * Prints the figures docs/zero-page.md quotes. Skips where THP is never
 * or use_zero_page is 0 (Linux), or no 2 MiB block is free. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "procfs.h"
#include "ulib.h"

#define HPAGE	(2UL << 20)
#define LEN	(256UL << 20)
#define NCHECKS	15

/* zpk's zero_page= policy is name ("[name]" in /proc/sys/vm/zero_page). */
static int zero_policy_is(const char *name)
{
	char buf[64] = "";

	read_file("/proc/sys/vm/zero_page", buf, sizeof(buf));
	return strstr(buf, name) != NULL;
}

/* The references a fresh mm's n huge zero PMDs take under zpk's
 * huge_zero_page= lifetime: n, 1, or 0. */
static long long refs_for(long long n)
{
	char buf[64] = "";

	read_file("/proc/sys/vm/huge_zero_page", buf, sizeof(buf));
	return strstr(buf, "[refcount]") ? n : strstr(buf, "[per-mm]") ? 1 : 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void skip_all(const char *why)
{
	tap_plan(1);
	tap_skip("%s", why);
	tap_done();
}

/* One read per 4 KiB of [p, p + len): the sparse scan. */
static long scan(const char *p, size_t len)
{
	volatile long sum = 0;

	for (size_t i = 0; i < len; i += 4096)
		sum += p[i];
	return sum;
}

int main(void)
{
	long long rss, zero, flt, alloc0, refs0 = 0, refs1 = 0;
	uint64_t pfn0 = 0;
	char mode[64] = "";
	int zpk = is_zpk(), status;
	/* zpk under special or refcount must map the huge zero page: no
	 * skip there, where its absence is a failure. */
	int must = zpk && !zero_policy_is("[off]");
	uint64_t e[2];
	double t;
	char *p;

	need_proc();
	if (read_file("/sys/kernel/mm/transparent_hugepage/enabled", mode,
		      sizeof(mode)) < 0 || strstr(mode, "[never]"))
		skip_all("THP is never on this kernel (or no sysfs)");
	if (read_file("/sys/kernel/mm/transparent_hugepage/use_zero_page",
		      mode, sizeof(mode)) < 0 || mode[0] != '1')
		skip_all("use_zero_page is 0 on this kernel");
	p = huge_area(LEN);
	if (!p)
		skip_all("no 256 MiB area with MADV_HUGEPAGE");
	/* Read /proc/vmstat and the clock first: the first use of the heap
	 * and of the vDSO's data must not fall between the RSS readings. */
	alloc0 = proc_vmstat_read("thp_zero_page_alloc");
	if (zpk)
		refs0 = huge_zero_holders();
	t = now();
	rss = self_kb("VmRSS");
	zero = zpk ? self_kb("RssZero") : 0;
	flt = self_minflt();
	t = now();
	scan(p, LEN);
	t = now() - t;
	flt = self_minflt() - flt;
	rss = self_kb("VmRSS") - rss;
	if (zpk)
		refs1 = huge_zero_holders();
	tap_note("sparse read of 256 MiB: %ld faults, VmRSS %+lld kB, "
		 "RssZero %+lld kB, %.4f s, thp_zero_page_alloc +%lld",
		 (long)flt, rss, zpk ? self_kb("RssZero") - zero : 0, t,
		 proc_vmstat_read("thp_zero_page_alloc") - alloc0);
	if (!must && flt > (long)(LEN / HPAGE) * 2 && rss < 1024)
		skip_all("no huge zero page here (4 KiB zero pages instead)");
	if (!must && rss >= 1024)
		skip_all("reads map real pages here (zpk's zero_page=off)");
	tap_plan(NCHECKS);
	tap_ok(flt <= (long)(LEN / HPAGE) + 8,
	       "one fault per 2 MiB: %ld faults for %lu", (long)flt,
	       LEN / HPAGE);
	tap_ok(kb_near(rss, 0), "VmRSS %+lld kB (want about 0)", rss);
	if (zpk)
		tap_ok(self_kb("RssZero") - zero == (long long)(LEN >> 10),
		       "RssZero %+lld kB: 4 KiB units, as the small zero page",
		       self_kb("RssZero") - zero);
	else
		tap_skip("RssZero is zpk's");
	if (pagemap_read(getpid(), (unsigned long)p, e, 2) == 2) {
		pfn0 = e[0] & ((1ULL << 55) - 1);
		tap_ok((e[0] >> 63) && (e[1] >> 63) &&
		       (!pfn0 || (e[1] & ((1ULL << 55) - 1)) == pfn0 + 1),
		       "pagemap: present, the huge zero page's pfns");
	} else {
		tap_ok(0, "pagemap readable");
	}
	if (zpk && pfn0)
		tap_ok((kpageflags(pfn0) >> 22 & 1) &&
		       (kpageflags(pfn0) >> 24 & 1),
		       "kpageflags: THP and ZERO_PAGE (%#llx)",
		       kpageflags(pfn0));
	else
		tap_skip("kpageflags needs the pfn (zpk, or root on Linux)");
	if (zpk)
		tap_ok(refs1 - refs0 == refs_for(LEN / HPAGE),
		       "its references as the lifetime counts them: %+lld for "
		       "%lu PMDs (want %+lld)", refs1 - refs0, LEN / HPAGE,
		       refs_for(LEN / HPAGE));
	else
		tap_skip("the huge zero page's references are zpk's");

	/* fork: the child reads zeros, writes its own copy. */
	if (fork() == 0) {
		int ok = scan(p, 4 * HPAGE) == 0;

		p[HPAGE + 5] = 9;
		_exit(ok && p[HPAGE + 5] == 9 && p[HPAGE + 4096] == 0 ? 0 : 1);
	}
	wait(&status);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
	       p[HPAGE + 5] == 0, "fork: the child reads zeros and writes "
	       "its own copy; the parent still reads zero");
	if (zpk)
		tap_ok(huge_zero_holders() == refs1, "the child gave back "
		       "every reference it took (%+lld)",
		       huge_zero_holders() - refs1);
	else
		tap_skip("the huge zero page's references are zpk's");

	rss = self_kb("VmRSS");
	p[3 * HPAGE + 100] = 1;
	rss = self_kb("VmRSS") - rss;
	/* zero_page=refcount counts its small zero PTEs as file RSS
	 * (2.6.23's), and the split makes 511 of them. */
	/* Linux 6.13 on maps a whole THP there (Dev Jain's "Allocate THP
	 * on hugezeropage wp-fault"); 6.1, and zpk, copy 4 KiB. */
	tap_ok(zpk ? rss == (zero_policy_is("[refcount]") ? 2048 : 4) :
		     kb_near(rss, 4) || kb_near(rss, 2048),
	       "a write to the huge zero page copies 4 KiB (Linux 6.13+: "
	       "2 MiB) (VmRSS %+lld kB)", rss);
	flt = self_minflt();
	status = p[3 * HPAGE + 100] == 1 &&
		 scan(p + 3 * HPAGE + 4096, HPAGE - 4096) == 0;
	flt = self_minflt() - flt;
	tap_ok(status, "the other 511 pages still read zeros");
	tap_ok(flt == 0, "... mapped by the split, without a fault (%lld)",
	       flt);

	tap_ok(mprotect(p + 4 * HPAGE, 2 * HPAGE, PROT_READ) == 0 &&
	       mprotect(p + 4 * HPAGE, 2 * HPAGE, PROT_READ | PROT_WRITE) ==
	       0 && scan(p + 4 * HPAGE, 2 * HPAGE) == 0,
	       "mprotect of whole huge zero PMDs: still zeros");
	p[5 * HPAGE] = 3;
	tap_ok(p[5 * HPAGE] == 3 && p[5 * HPAGE + 4096] == 0,
	       "and a write after it copies, not writes the zero page");
	{
		char buf[16] = { 1 };
		int fd = open("/proc/self/mem", O_RDONLY);

		tap_ok(fd >= 0 && pread(fd, buf, sizeof(buf),
					(long)(p + 7 * HPAGE + 8)) ==
		       sizeof(buf) && !buf[0] && !buf[15],
		       "/proc/self/mem reads zeros from it");
		if (fd >= 0)
			close(fd);
	}
	zero = zpk ? self_kb("RssZero") : 0;
	status = madvise(p, LEN, MADV_DONTNEED);
	rss = zpk ? self_kb("RssZero") : 0;
	tap_ok(status == 0 && rss == 0 && scan(p, 4 * HPAGE) == 0,
	       "MADV_DONTNEED drops it all (RssZero %lld -> %lld kB)", zero,
	       rss);
	munmap(p, LEN);
	tap_done();
}
