/* user/tests/zeropage/sparse_scan.c — the case the zero page is for: a
 * big region, one byte written every 256th page, then all of it read.
 * special/refcount: RssAnon near the written pages; off: the region.
 * sparse_scan [MiB] [--memmap] (default 256 MiB); --memmap draws physical
 * memory with /bin/memmap -p, this process's pages marked, while the
 * region is still mapped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ulib.h"
#include "zp.h"

#define STRIDE	256	/* pages between written ones */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* memmap -p (this process), run while the region is mapped. */
static void draw_memmap(void)
{
	char pid[16];
	int st;
	pid_t child;

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	child = fork();
	if (child == 0) {
		execl("/bin/memmap", "memmap", "-p", pid, (char *)NULL);
		_exit(127);
	}
	waitpid(child, &st, 0);
}

int main(int argc, char **argv)
{
	int draw = argc > 1 && !strcmp(argv[argc - 1], "--memmap");
	long mib = argc > 1 + draw ? atol(argv[1]) : 256, pages, written, i;
	struct zp_sample s0, s1, s2;
	unsigned long sum = 0;
	long long region_kb, want, got;	/* the writes made the tables */
	double t0, t1;
	char *p;

	need_proc();
	tap_plan(4);
	zp_note_mode();
	pages = mib * 256;
	written = (pages + STRIDE - 1) / STRIDE;
	region_kb = pages * 4LL;
	p = mmap(NULL, pages * PAGE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!tap_ok(p != MAP_FAILED, "map %ld MiB (%ld pages)", mib, pages))
		tap_done();
	zp_baseline(&s0);
	for (i = 0; i < pages; i += STRIDE)
		poke(p + i * PAGE_SIZE, 1);
	zp_sample(&s1);
	t0 = now();
	for (i = 0; i < pages; i++)
		sum += peek(p + i * PAGE_SIZE);
	t1 = now();
	zp_sample(&s2);
	got = s2.anon - s0.anon;
	want = zp_mode() == ZP_OFF ? region_kb : written * 4LL;
	tap_note("%ld MiB, %ld pages written: RssAnon %+lld kB after the "
		 "writes, %+lld kB after the scan (region %lld kB); RssZero "
		 "%+lld kB; scan %.3f s", mib, written, s1.anon - s0.anon, got,
		 region_kb, s2.zero - s0.zero, t1 - t0);
	tap_ok(sum == (unsigned long)written, "the scan reads back %ld ones "
	       "and zeros elsewhere (%lu)", written, sum);
	zp_ok(got >= want - LINUX_RSS_SLACK_KB && got <= want +
	      LINUX_RSS_SLACK_KB, "%s: RssAnon after the scan %+lld kB, near "
	      "%s (%lld kB)", zp_policy_names[zp_mode()], got,
	      zp_mode() == ZP_OFF ? "the whole region" : "the written pages",
	      want);
	zp_zpk_ok(s2.zero - s1.zero == (zp_mode() == ZP_OFF ? 0 :
					(pages - written) * 4LL) &&
		  s1.free - s2.free == (zp_mode() == ZP_OFF ? pages - written :
					0), "RssZero %+lld kB for the %ld unwritten "
		  "pages; the scan used %ld pages", s2.zero - s1.zero,
		  pages - written, s1.free - s2.free);
	if (draw)
		draw_memmap();
	munmap(p, pages * PAGE_SIZE);
	tap_done();
}
