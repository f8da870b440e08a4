/* user/tests/swap_scan.c — issue 31's demo: the sparse scan of
 * zeropage/sparse_scan (one byte written every 256th page, then all of
 * it read) over a region larger than RAM, with a swap area. Under
 * zero_page=off the reads allocate the whole region: reclaim swaps the
 * oldest pages out (pswpout rises) instead of the OOM killer killing the
 * scan, as Linux 2.6.24 did for Julian Phillips in 2009. Under special
 * or refcount the reads map the zero page: no swap. Then threads fault
 * on every CPU while kswapd evicts their pages. Only on a scratch
 * disk of 1.5 x RAM or more (tests/qemu/blk.sh); skips otherwise. */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/swap.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#include "procfs.h"
#include "scratch.h"
#include "ulib.h"
#include "zp.h"

#define DEV	"/dev/vda"
#define PAGE	4096
#define STRIDE	256

static long vmstat(const char *name)
{
	return proc_vmstat_read(name);
}

#define THREADS	4

struct part {
	unsigned char *p;
	long pages, bad;
	int seed;
};

/* One thread's quarter: a pattern written, then read back twice while
 * the others' faults and kswapd push its pages out and in. */
static void *churn(void *arg)
{
	struct part *t = arg;

	for (long i = 0; i < t->pages * PAGE; i += 512)
		t->p[i] = (unsigned char)(i / 512 * 7 + t->seed);
	for (int round = 0; round < 2; round++)
		for (long i = 0; i < t->pages * PAGE; i += 512)
			t->bad += t->p[i] !=
				  (unsigned char)(i / 512 * 7 + t->seed);
	return NULL;
}

/* Threads of one mm fault on every CPU while kswapd and direct reclaim
 * evict their pages: every byte written comes back. */
static void threads(long pages)
{
	unsigned char *p = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
				-1, 0);
	struct part t[THREADS];
	pthread_t tid[THREADS];
	long bad = 0, in0 = vmstat("pswpin");

	for (int k = 0; k < THREADS && p != MAP_FAILED; k++) {
		t[k] = (struct part){ p + k * (pages / THREADS) * PAGE,
				      pages / THREADS, 0, k + 1 };
		pthread_create(&tid[k], NULL, churn, &t[k]);
	}
	for (int k = 0; k < THREADS && p != MAP_FAILED; k++) {
		pthread_join(tid[k], NULL);
		bad += t[k].bad;
	}
	tap_ok(p != MAP_FAILED && bad == 0, "%d threads over %ld MiB: every "
	       "pattern byte back (%ld differ), pswpin %+ld", THREADS,
	       pages / 256, bad, vmstat("pswpin") - in0);
	if (p != MAP_FAILED)
		munmap(p, pages * PAGE);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void)
{
	long long bytes = scratch_disk_size(DEV);
	struct sysinfo si;
	long pages, i, out0, steal0, sum = 0;
	int off = zp_mode() == ZP_OFF, r;
	double t0;
	char *p;

	sysinfo(&si);
	pages = (long)(si.totalram * si.mem_unit / PAGE) * 5 / 4;
	if (!is_zpk() || bytes < (long long)pages * PAGE) {
		tap_plan(1);
		tap_skip("needs zpk and a scratch disk of 1.25 x RAM (%ld MiB)",
			 pages / 256);
		tap_done();
	}
	tap_plan(5);
	r = scratch_swapon(DEV, bytes);
	tap_ok(r == 0, "swapon (%s)", r ? strerror(errno) : "ok");
	p = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	out0 = vmstat("pswpout");
	steal0 = vmstat("pgsteal_kswapd") + vmstat("pgsteal_direct");
	t0 = now();
	for (i = 0; p != MAP_FAILED && i < pages; i += STRIDE)
		p[i * PAGE] = 1;
	for (i = 0; p != MAP_FAILED && i < pages; i++)
		sum += p[i * PAGE];
	tap_note("%ld MiB (RAM %lu MiB) under %s: scan %.2f s, pswpout %+ld, "
		 "pgsteal %+ld, VmHWM %lld kB", pages / 256,
		 si.totalram * si.mem_unit >> 20, off ? "off" : "a zero page",
		 now() - t0, vmstat("pswpout") - out0,
		 vmstat("pgsteal_kswapd") + vmstat("pgsteal_direct") - steal0,
		 self_kb("VmHWM"));
	tap_ok(sum == (pages + STRIDE - 1) / STRIDE, "the scan of %ld pages "
	       "reads back its %ld ones, not killed", pages, sum);
	if (off)
		tap_ok(vmstat("pswpout") > out0, "off: it swapped (pswpout "
		       "%+ld)", vmstat("pswpout") - out0);
	else
		tap_ok(vmstat("pswpout") == out0, "zero page: no swap needed "
		       "(pswpout %+ld)", vmstat("pswpout") - out0);
	munmap(p, pages * PAGE);
	threads(pages);
	r = scratch_swapoff(DEV);
	tap_ok(r == 0, "swapoff (%s)", r ? strerror(errno) : "ok");
	tap_done();
}
