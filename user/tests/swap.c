/* user/tests/swap.c — reclaim to swap (mm/vmscan.c, mm/swap_state.c,
 * do_swap_page): pages with a pattern go out with MADV_PAGEOUT and come
 * back intact, read or written, across fork and COW, mremap, mprotect,
 * /proc/self/mem; VmSwap, smaps' Swap, meminfo's SwapFree, pagemap's
 * swap bit, mincore, vmstat's pswpout/pswpin and ru_majflt move as
 * Linux's; MADV_DONTNEED and munmap give the slots back; a THP goes out
 * whole; MADV_COLLAPSE and swapoff bring pages in. Only on a scratch disk (tests/qemu/blk.sh),
 * as swapon.c, which it leaves without a swap header; skips otherwise. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/swap.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procfs.h"
#include "scratch.h"
#include "ulib.h"

#define DEV	"/dev/vda"
#define PAGE	4096
#define NP	64		/* pages of each mapping */

static long swap_free_kb(void)
{
	return proc_kb("/proc/meminfo", "SwapFree");
}

static long vmstat(const char *name)
{
	return proc_vmstat_read(name);
}

/* The smaps Swap: of the VMA at addr, in kB. */
static long smaps_swap_kb(void *addr)
{
	static char buf[1 << 16];
	char head[32], *p;

	if (read_file("/proc/self/smaps", buf, sizeof(buf)) < 0)
		return -1;
	snprintf(head, sizeof(head), "%lx-", (unsigned long)addr);
	p = strstr(buf, head);
	p = p ? strstr(p, "\nSwap:") : NULL;
	return p ? atol(p + 6) : -1;
}

static unsigned char pat(unsigned long i, int seed)
{
	return (unsigned char)(i * 31 + seed + (i >> 12) * 7);
}

static char *fill(int seed)
{
	char *m = mmap(NULL, NP * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return NULL;
	for (unsigned long i = 0; i < NP * PAGE; i++)
		m[i] = pat(i, seed);
	return m;
}

/* Bytes of m that differ from the pattern (reading them faults in). */
static long differ(const char *m, int seed, unsigned long pages)
{
	long bad = 0;

	for (unsigned long i = 0; i < pages * PAGE; i++)
		bad += (unsigned char)m[i] != pat(i, seed);
	return bad;
}

/* Pages of [m, m + NP pages) that pagemap says are in swap, and those
 * mincore says are resident. */
static void where(const char *m, int *swapped, int *resident)
{
	uint64_t e[NP];
	unsigned char v[NP];
	int fd = open("/proc/self/pagemap", O_RDONLY);

	*swapped = *resident = 0;
	if (fd >= 0 && pread(fd, e, sizeof(e),
			     (unsigned long)m / PAGE * 8) == sizeof(e))
		for (int i = 0; i < NP; i++)
			*swapped += (e[i] >> 62 & 1) && !(e[i] >> 63);
	if (fd >= 0)
		close(fd);
	if (!mincore((void *)m, NP * PAGE, v))
		for (int i = 0; i < NP; i++)
			*resident += v[i] & 1;
}

static void out_and_in(void)
{
	long free0 = swap_free_kb(), out0 = vmstat("pswpout");
	long in0 = vmstat("pswpin"), maj0 = self_majflt();
	char *m = fill(1);
	int swapped, resident, r;

	r = madvise(m, NP * PAGE, MADV_PAGEOUT);
	where(m, &swapped, &resident);
	tap_ok(r == 0 && swapped == NP && resident == 0, "MADV_PAGEOUT: "
	       "pagemap has %d of %d pages in swap, mincore %d resident",
	       swapped, NP, resident);
	tap_ok(self_kb("VmSwap") == NP * 4 && smaps_swap_kb(m) == NP * 4 &&
	       self_kb("RssAnon") < NP * 4, "VmSwap %lld kB, smaps Swap %ld "
	       "kB, RssAnon %lld kB", self_kb("VmSwap"), smaps_swap_kb(m),
	       self_kb("RssAnon"));
	tap_ok(free0 - swap_free_kb() == NP * 4 &&
	       vmstat("pswpout") - out0 == NP, "SwapFree %ld kB less, pswpout "
	       "+%ld", free0 - swap_free_kb(), vmstat("pswpout") - out0);
	tap_ok(differ(m, 1, NP) == 0, "the pattern reads back");
	tap_ok(self_majflt() - maj0 == NP && vmstat("pswpin") - in0 == NP,
	       "ru_majflt +%ld, pswpin +%ld", self_majflt() - maj0,
	       vmstat("pswpin") - in0);
	tap_ok(self_kb("VmSwap") == 0 && swap_free_kb() == free0,
	       "back in: VmSwap %lld kB, every slot free again (exclusive "
	       "swap-in)", self_kb("VmSwap"));
	/* A write fault on a swapped page, a second round trip. */
	madvise(m, NP * PAGE, MADV_PAGEOUT);
	for (int i = 0; i < NP; i++)
		m[i * PAGE + 5] = pat(i * PAGE + 5, 1);
	tap_ok(differ(m, 1, NP) == 0 && self_kb("VmSwap") == 0,
	       "written to while out: the rest of each page is intact");
	madvise(m, NP * PAGE, MADV_COLD);
	tap_ok(differ(m, 1, NP) == 0, "MADV_COLD: nothing lost");
	munmap(m, NP * PAGE);
}

/* Out, then fork: the child reads (the swap cache shares the read),
 * writes half (COW); the parent's pages stay its own. */
static void fork_cow(void)
{
	long free0 = swap_free_kb();
	char *m = fill(2);
	int status = -1;
	pid_t pid;

	madvise(m, NP * PAGE, MADV_PAGEOUT);
	pid = fork();
	if (pid == 0) {
		long bad = differ(m, 2, NP);

		for (unsigned long i = 0; i < NP / 2 * PAGE; i++)
			m[i] = pat(i, 9);
		bad += differ(m, 9, NP / 2);
		for (unsigned long i = NP / 2 * PAGE; i < NP * PAGE; i++)
			bad += (unsigned char)m[i] != pat(i, 2);
		_exit(bad ? 1 : 0);
	}
	waitpid(pid, &status, 0);
	tap_ok(status == 0, "fork after swap-out: the child reads the "
	       "pattern and writes its own copy (%s)", status_str(status));
	tap_ok(differ(m, 2, NP) == 0, "... the parent's pages are unchanged");
	tap_ok(self_kb("VmSwap") == 0, "... and back in the parent");
	/* fork with pages out, the parent writes, the child reads. */
	madvise(m, NP * PAGE, MADV_PAGEOUT);
	pid = fork();
	if (pid == 0) {
		usleep(20000);
		_exit(differ(m, 2, NP) ? 1 : 0);
	}
	tap_ok(mm_verify_clean(), "mm_verify with the slots shared by two mms");
	for (unsigned long i = 0; i < NP * PAGE; i += 100)
		m[i] = 0;
	waitpid(pid, &status, 0);
	tap_ok(status == 0, "the parent writes while the child reads: the "
	       "child's copy is intact (%s)", status_str(status));
	munmap(m, NP * PAGE);
	tap_ok(swap_free_kb() == free0, "no slot left behind (SwapFree %ld "
	       "kB, was %ld)", swap_free_kb(), free0);
}

/* The paths that carry a swap PTE without faulting it in. */
static void paths(void)
{
	long free0 = swap_free_kb();
	char *m = fill(3), *n, buf[PAGE];
	int fd, ok;

	madvise(m, NP * PAGE, MADV_PAGEOUT);
	n = mremap(m, NP * PAGE, NP * PAGE * 2, MREMAP_MAYMOVE);
	tap_ok(n != MAP_FAILED && self_kb("VmSwap") == NP * 4 &&
	       differ(n, 3, NP) == 0, "mremap moves swap PTEs: the pattern at "
	       "the new place");
	m = n;
	madvise(m, NP * PAGE, MADV_PAGEOUT);
	mprotect(m, NP * PAGE, PROT_READ);
	tap_ok(self_kb("VmSwap") == NP * 4 && differ(m, 3, NP) == 0,
	       "mprotect leaves them; a read-only swap-in");
	mprotect(m, NP * PAGE, PROT_READ | PROT_WRITE);
	madvise(m, NP * PAGE, MADV_PAGEOUT);
	fd = open("/proc/self/mem", O_RDONLY);
	ok = fd >= 0 && pread(fd, buf, PAGE, (unsigned long)m + 7 * PAGE) ==
			PAGE;
	for (int i = 0; ok && i < PAGE; i++)
		ok = (unsigned char)buf[i] == pat(7 * PAGE + i, 3);
	if (fd >= 0)
		close(fd);
	tap_ok(ok, "/proc/self/mem reads a swapped page (get_user_pages)");
	madvise(m, NP / 2 * PAGE, MADV_DONTNEED);
	tap_ok(self_kb("VmSwap") == NP / 2 * 4, "MADV_DONTNEED "
	       "drops half the swap PTEs: VmSwap %lld kB", self_kb("VmSwap"));
	munmap(m, NP * PAGE * 2);
	tap_ok(self_kb("VmSwap") == 0 && swap_free_kb() == free0,
	       "munmap gives back the rest: SwapFree %ld kB", swap_free_kb());
}

/* swapoff with pages out: they come back in, intact. */
/* MADV_COLLAPSE of 2 MiB half in swap: the swapped half is read in
 * (Linux's __collapse_huge_page_swapin) and the whole becomes one THP. */
static void collapse_swapped(void)
{
	char *m = huge_area(HPAGE_SIZE);
	long long swap0 = self_kb("VmSwap"), out = 0;
	int r = -1;

	if (m && !madvise(m, HPAGE_SIZE, MADV_NOHUGEPAGE)) {
		for (unsigned long i = 0; i < HPAGE_SIZE; i++)
			m[i] = pat(i, 5);
		madvise(m, HPAGE_SIZE, MADV_HUGEPAGE);
		madvise(m, HPAGE_SIZE / 2, MADV_PAGEOUT);
		out = self_kb("VmSwap") - swap0;
		r = madvise(m, HPAGE_SIZE, MADV_COLLAPSE);
	}
	tap_ok(out == HPAGE_SIZE / 2048 && r == 0 &&
	       smaps_kb(m, "AnonHugePages") == 2048 &&
	       self_kb("VmSwap") == swap0,
	       "MADV_COLLAPSE of 2 MiB with %lld kB in swap: %d (%s), "
	       "AnonHugePages %lld kB, VmSwap %+lld kB", out, r,
	       r ? strerror(errno) : "ok", m ? smaps_kb(m, "AnonHugePages") :
	       -1, self_kb("VmSwap") - swap0);
	tap_ok(m && differ(m, 5, HPAGE_SIZE / PAGE) == 0,
	       "... and the pattern is all there");
	if (m)
		munmap(m, HPAGE_SIZE);
}

/* MADV_PAGEOUT of a THP this mm alone maps: all of it goes to swap
 * (zpk splits it, Linux 6.1 swaps it whole), and comes back intact. */
static void pageout_thp(void)
{
	char *m = huge_area(HPAGE_SIZE);
	long long swap0 = self_kb("VmSwap"), huge = -1, out = 0;
	long bad;
	int r = -1;

	if (m) {
		for (unsigned long i = 0; i < HPAGE_SIZE; i++)
			m[i] = pat(i, 6);
		huge = smaps_kb(m, "AnonHugePages");
	}
	if (huge != 2048) {
		tap_skip("no THP to page out (AnonHugePages %lld kB: THP never, "
			 "or no free 2 MiB)", huge);
		tap_skip("... and so nothing to read back");
	} else {
		r = madvise(m, HPAGE_SIZE, MADV_PAGEOUT);
		out = self_kb("VmSwap") - swap0;
		tap_ok(r == 0 && out == 2048, "MADV_PAGEOUT of a THP: %d, VmSwap "
		       "%+lld kB (want 2048), AnonHugePages %lld kB", r, out,
		       smaps_kb(m, "AnonHugePages"));
		bad = differ(m, 6, HPAGE_SIZE / PAGE);
		out = self_kb("VmSwap") - swap0;
		tap_ok(bad == 0 && out == 0, "... read back, the pattern is all "
		       "there (%ld bytes differ; VmSwap %+lld kB)", bad, out);
	}
	if (m)
		munmap(m, HPAGE_SIZE);
}

static void off_with_pages_out(void)
{
	char *m = fill(4);
	int r;

	madvise(m, NP * PAGE, MADV_PAGEOUT);
	r = swapoff(DEV);
	tap_ok(r == 0 && self_kb("VmSwap") == 0, "swapoff with %d pages out "
	       "(%s): VmSwap %lld kB", NP, r ? strerror(errno) : "ok",
	       self_kb("VmSwap"));
	tap_ok(differ(m, 4, NP) == 0, "... and the pattern is all there");
	munmap(m, NP * PAGE);
}

int main(void)
{
	long long bytes = scratch_disk_size(DEV);
	int r;

	if (bytes < 4 * NP * PAGE) {
		tap_plan(1);
		tap_skip(DEV " is not a scratch disk of 1 MiB or more");
		tap_done();
	}
	need_proc();
	tap_plan(26);
	r = scratch_swapon(DEV, bytes);
	tap_ok(r == 0, "swapon (%s)", r ? strerror(errno) : "ok");
	out_and_in();
	fork_cow();
	paths();
	collapse_swapped();
	pageout_thp();
	off_with_pages_out();
	scratch_swapoff(DEV);
	tap_done();
}
