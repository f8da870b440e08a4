/* user/tests/swap_lru.c — reclaim's choice of victim (mm/vmscan.c's
 * second chance, Linux's LRU aging): under memory pressure the pages a
 * program keeps using stay in memory. A hot set is read again after
 * every 256 KiB of fresh writes past RAM's size (streamed: MADV_COLD
 * once written); the swap-ins its reads take (ru_majflt) stay few.
 * Without the accessed bit's second chance, reclaim's clock evicts the
 * hot set as it passes, and the reads fault it back from the disk. The
 * note shows where a cold set, written once, is by then (the clock need
 * not come round to it). A set of transparent huge pages, MADV_COLD,
 * goes to swap under the same pressure (reclaim splits a THP to swap
 * it, as Linux's does) and comes back intact. And a system call made
 * under the pressure (a read of /proc/vmstat after every chunk) gets
 * its kernel memory: the allocator reclaims for it when no page is
 * free, rather than fail it with ENOMEM. Only on a scratch disk of
 * 1.5 x RAM or more (tests/qemu/blk.sh); skips otherwise. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "procfs.h"
#include "scratch.h"
#include "ulib.h"

#define DEV	"/dev/vda"
#define PAGE	4096L
#define HOT	512L		/* pages read again and again: 2 MiB */
#define COLD	2048L		/* pages written once: 8 MiB */
#define CHUNK	64L		/* fresh pages between two reads of HOT */
#define THP	((long)(4 * HPAGE_SIZE / PAGE))	/* the THP set: 8 MiB */

static char *fill(long pages, char v)
{
	char *p = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	for (long i = 0; i < pages; i++)
		memset(p + i * PAGE, v, 64);
	return p;
}

/* Pages of [p, p + pages) that mincore says are in memory. */
static long resident(char *p, long pages)
{
	static unsigned char v[COLD];
	long n = 0;

	if (pages > COLD || mincore(p, pages * PAGE, v))
		return -1;
	for (long i = 0; i < pages; i++)
		n += v[i] & 1;
	return n;
}

/* The THP set: 2 MiB-aligned, MADV_HUGEPAGE, written, then MADV_COLD
 * (used no more). NULL if the kernel gave no huge pages (THP off). */
static char *cold_thps(void)
{
	char *t = huge_area(THP * PAGE);

	if (!t)
		return NULL;
	for (long i = 0; i < THP; i++)
		memset(t + i * PAGE, 't', 64);
	if (smaps_kb(t, "AnonHugePages") != THP * PAGE / 1024) {
		munmap(t, THP * PAGE);
		return NULL;
	}
	madvise(t, THP * PAGE, MADV_COLD);
	return t;
}

/* The THP set after the pressure: some of it in swap, all of it intact
 * once read back (swap-ins). */
static void check_thps(char *t, long long split0)
{
	long long swap_kb = t ? smaps_kb(t, "Swap") : -1;
	long bad = 0;

	if (!t) {
		tap_skip("no transparent huge pages to swap");
		return;
	}
	for (long i = 0; i < THP; i++)
		bad += t[i * PAGE] != 't' || t[i * PAGE + 63] != 't';
	tap_ok(swap_kb > 0 && bad == 0, "a MADV_COLD set of %ld THPs goes "
	       "to swap (Swap %lld kB; thp_split_page %+lld) and comes back "
	       "intact (%ld bad pages)", THP * PAGE / HPAGE_SIZE, swap_kb,
	       proc_vmstat_read("thp_split_page") - split0, bad);
	munmap(t, THP * PAGE);
}

/* Reads every hot page; the swap-ins it took. Bad bytes into *bad. */
static long read_hot(const char *hot, long *bad)
{
	long maj = self_majflt();

	for (long i = 0; i < HOT; i++)
		*bad += hot[i * PAGE] != 'h';
	return self_majflt() - maj;
}

int main(void)
{
	long long bytes = scratch_disk_size(DEV);
	long press, hot_maj = 0, bad = 0, out0, hot_res, cold_res;
	long reads = 0, failed = 0;
	int err = 0;
	long long out;
	long long split0 = proc_vmstat_read("thp_split_page");
	struct sysinfo si;
	char *hot, *cold, *p, *thps;
	int r;

	sysinfo(&si);
	press = (long)(si.totalram * si.mem_unit / PAGE);
	if (bytes < (long long)press * PAGE * 3 / 2) {
		tap_plan(1);
		tap_skip("needs a scratch disk of 1.5 x RAM (%ld MiB)",
			 press * 3 / 2 / 256);
		tap_done();
	}
	need_proc();
	tap_plan(6);
	r = scratch_swapon(DEV, bytes);
	tap_ok(r == 0, "swapon (%s)", r ? strerror(errno) : "ok");
	/* Mapped top-down, so thps < cold < hot < p: reclaim's clock,
	 * which walks an mm upwards, meets the sets on each pass. */
	p = mmap(NULL, press * PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p != MAP_FAILED)	/* the stream: small pages */
		madvise(p, press * PAGE, MADV_NOHUGEPAGE);
	hot = fill(HOT, 'h');
	cold = fill(COLD, 'c');
	thps = cold_thps();
	out0 = proc_vmstat_read("pswpout");
	/* Each chunk, once written, is MADV_COLD (streamed data: no
	 * accessed bit), so that reclaim's clock finds old pages behind
	 * the writes and never turns twice between two reads of the hot
	 * set, where every page it meets was young. */
	for (long i = 0; hot && cold && p != MAP_FAILED && i < press; i++) {
		p[i * PAGE] = 1;
		if (i % CHUNK != CHUNK - 1)
			continue;
		madvise(p + (i + 1 - CHUNK) * PAGE, CHUNK * PAGE, MADV_COLD);
		hot_maj += read_hot(hot, &bad);
		if (proc_vmstat_read("pswpout") < 0 && !failed++)
			err = errno;
		reads++;
	}
	hot_res = hot ? resident(hot, HOT) : -1;
	cold_res = cold ? resident(cold, COLD) : -1;
	out = proc_vmstat_read("pswpout") - out0;
	if (p != MAP_FAILED)
		munmap(p, press * PAGE);
	tap_note("%ld MiB written past %lu MiB of RAM: pswpout %+lld, the "
		 "hot set's swap-ins %ld, resident: hot %ld of %ld, cold %ld "
		 "of %ld", press / 256, si.totalram * si.mem_unit >> 20,
		 out, hot_maj, hot_res, HOT, cold_res, COLD);
	tap_ok(hot && cold && p != MAP_FAILED && out > COLD / 2,
	       "writes past RAM swap (pswpout %+lld)", out);
	tap_ok(hot && bad == 0 && hot_maj < HOT / 4,
	       "the hot set, read every %ld pages, stays in memory: %ld "
	       "swap-ins (fewer than %ld), %ld bad bytes", CHUNK, hot_maj,
	       HOT / 4, bad);
	tap_ok(reads > 0 && failed == 0, "/proc/vmstat read under the "
	       "pressure: %ld of %ld reads failed%s%s", failed, reads,
	       failed ? ", the first with " : "", failed ? strerror(err) : "");
	check_thps(thps, split0);
	r = scratch_swapoff(DEV);
	tap_ok(r == 0, "swapoff (%s)", r ? strerror(errno) : "ok");
	tap_done();
}
