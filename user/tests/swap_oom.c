/* user/tests/swap_oom.c — the OOM killer with swap on: it runs only when
 * reclaim can make no progress (issue 31). A hog of shared anonymous
 * memory, which zpk never swaps (docs/vm.md), is killed though free
 * slots are left; a hog of private memory goes to swap first and is
 * killed once swap is full. Each time the hog is the one process killed,
 * though this test allocates on meanwhile (its own allocations wait for
 * the dying hog, Linux's rule, rather than kill a second process), and
 * the hog's slots come back (swapoff then brings in the rest).
 * Allocations that may sleep reclaim or wait for kswapd before they take
 * the pages under min, and a user page never takes them: here, where
 * nothing (or no slot) is left to reclaim, the hog's faults must fail to
 * the OOM killer, not stall, and the pages under min stay for the
 * kernel's allocations for other processes' system calls, which cannot
 * reclaim: this test's reads of /proc meanwhile all succeed. Only on a
 * scratch disk of 1.5 x RAM or more (tests/qemu/blk.sh); skips
 * otherwise. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "procfs.h"
#include "scratch.h"
#include "ulib.h"

#define DEV	"/dev/vda"
#define CHUNK	(4L << 20)
#define CHUNKS	1024		/* 4 GiB: more than RAM and swap here */

/* Touches page after page of 4 MiB chunks (flags: MAP_SHARED or
 * MAP_PRIVATE) until it is killed; 3 if it never is. */
static void __attribute__((noreturn)) hog(int flags)
{
	write_file("/proc/self/oom_score_adj", "1000");
	for (int n = 0; n < CHUNKS; n++) {
		char *p = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE,
			       flags | MAP_ANONYMOUS, -1, 0);

		for (long i = 0; p != MAP_FAILED && i < CHUNK; i += 4096)
			p[i] = 1;
	}
	_exit(3);
}

static unsigned long swap_free_kb(void)
{
	struct sysinfo si;

	sysinfo(&si);
	return si.freeswap * si.mem_unit / 1024;
}

/* The OOM killer's "Killed process" lines in the log, and whether the
 * first names pid. */
static int kills(pid_t pid, int *first_is_pid)
{
	const char *key = "Out of memory: Killed process ", *p = klog_read();
	int k = 0;

	*first_is_pid = 0;
	while ((p = strstr(p, key))) {
		p += strlen(key);
		if (!k++)
			*first_is_pid = atoi(p) == pid;
	}
	return k;
}

/* A hog of flags, waited for; with reads, while this process allocates
 * too (reads of /proc/vmstat again and again, counted into *reads, the
 * failed ones into *failed: a millisecond apart while a private hog
 * swaps, since at -smp 1 a reader that never sleeps would hold off
 * kswapd's every wake-up from I/O for the rest of its time slice: zpk's
 * round-robin has no wake-up preemption). Its status; its run's seconds,
 * pswpout and the OOM kills (*only: 1 if one only, and of the hog). */
static int run_hog(int flags, double *secs, long long *out, long *reads,
		   long *failed, int *only)
{
	long long out0 = proc_vmstat_read("pswpout");
	struct timespec t0, t1;
	int st = -1, first = 0;
	pid_t pid;

	klog_clear();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid == 0)
		hog(flags);
	while (pid > 0 && reads && waitpid(pid, &st, WNOHANG) == 0) {
		*failed += proc_vmstat_read("nr_free_pages") < 0;
		(*reads)++;
		if (flags & MAP_PRIVATE)
			usleep(1000);
	}
	if (pid > 0 && !reads)
		waitpid(pid, &st, 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	*secs = (double)(t1.tv_sec - t0.tv_sec) +
		(double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	*out = proc_vmstat_read("pswpout") - out0;
	*only = kills(pid, &first) == 1 && first;
	return st;
}

static int killed(int st)
{
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
}

int main(void)
{
	long long bytes = scratch_disk_size(DEV), out;
	unsigned long total_kb;
	struct sysinfo si;
	double secs;
	long reads = 0, failed = 0, preads = 0, pfailed = 0;
	int r, st, waited = 0, only;

	sysinfo(&si);
	if (bytes < (long long)si.totalram * si.mem_unit * 3 / 2) {
		tap_plan(1);
		tap_skip("needs a scratch disk of 1.5 x RAM");
		tap_done();
	}
	need_proc();
	tap_plan(6);
	write_file("/proc/self/oom_score_adj", "-1000");
	r = scratch_swapon(DEV, bytes);
	tap_ok(r == 0, "swapon (%s)", r ? strerror(errno) : "ok");
	total_kb = swap_free_kb();

	st = run_hog(MAP_SHARED, &secs, &out, &reads, &failed, &only);
	tap_note("shared hog: %.2f s, pswpout %+lld; meanwhile %ld reads of "
		 "/proc/vmstat by this test, %ld failed", secs, out, reads,
		 failed);
	tap_ok(killed(st) && only, "a hog of shared anonymous memory "
	       "(never swapped) is killed, and no other process, with free "
	       "slots left: %s%s, SwapFree %lu of %lu kB", status_str(st),
	       only ? "" : " (not the one OOM kill)", swap_free_kb(),
	       total_kb);

	st = run_hog(MAP_PRIVATE, &secs, &out, &preads, &pfailed, &only);
	tap_note("private hog: %.2f s, pswpout %+lld; meanwhile %ld reads, "
		 "%ld failed", secs, out, preads, pfailed);
	tap_ok(killed(st) && only && out >= (long long)total_kb / 4 / 2,
	       "a hog of private memory is killed, and no other process, "
	       "once swap is full: %s%s, pswpout %+lld (the area: %lu pages)",
	       status_str(st), only ? "" : " (not the one OOM kill)", out,
	       total_kb / 4);
	/* Other processes' pages may stay in swap: not all comes back. And
	 * the hog's mm may outlive it a little (a reclaimer held it: the
	 * last mmput tears it down), so its slots may take a while. */
	while (waited < 5000 && swap_free_kb() < total_kb / 8 * 7) {
		usleep(100 * 1000);
		waited += 100;
	}
	tap_ok(swap_free_kb() >= total_kb / 8 * 7,
	       "its slots come back: SwapFree %lu of %lu kB (after %d ms)",
	       swap_free_kb(), total_kb, waited);
	r = scratch_swapoff(DEV);
	tap_ok(r == 0, "swapoff (%s)", r ? strerror(errno) : "ok");
	tap_ok(reads && preads && !failed && !pfailed,
	       "every read of /proc/vmstat by this test succeeds while the "
	       "hogs run: %ld of %ld failed (shared), %ld of %ld (private)",
	       failed, reads, pfailed, preads);
	tap_done();
}
