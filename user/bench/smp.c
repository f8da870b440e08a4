/* user/bench/smp.c — zpbench --threads T / --procs T: the 2009 story,
 * measured. T workers, each pinned to a CPU of its own, map a fresh
 * anonymous region, read-fault it page by page and unmap it, round after
 * round, all at once. Under zero_page=refcount every such fault and every
 * unmapped page writes the zero page's struct page, one cache line that
 * all CPUs share; under special nothing there is shared; off allocates
 * and clears a page each time. Threads also share one mm (its mmap_lock
 * and RSS counters); processes share nothing but the zero page. The
 * figures are wall time (no -icount with several CPUs): docs/bench.md. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ulib.h"

#define MAX_WORKERS	8

/* What the workers share: a start line, so that they fault at the same
 * time, and each one's figures. MAP_SHARED, for the processes. */
struct smp_shared {
	int ready, go;
	struct {
		int cpu;		/* where it ran (sched_getcpu at the end) */
		long faults;		/* page faults it took */
		long long ns;		/* wall time of its rounds */
	} w[MAX_WORKERS];
};

struct worker_arg {
	struct smp_shared *sh;
	int id;
	long pages, rounds;
};

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* One worker: rounds of map, read every page, unmap. Its faults are
 * counted as the pages it read: each read of a fresh page is one. */
static void *worker(void *p)
{
	struct worker_arg *a = p;
	struct smp_shared *sh = a->sh;
	volatile char sink = 0;
	long long t0;
	long faults = 0;

	pin_to_nth_cpu(a->id);
	__atomic_fetch_add(&sh->ready, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&sh->go, __ATOMIC_ACQUIRE))
		sched_yield();
	t0 = now_ns();
	for (long r = 0; r < a->rounds; r++) {
		char *m = mmap(NULL, a->pages * PAGE_SIZE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			break;
		for (long k = 0; k < a->pages; k++)
			sink += m[k * PAGE_SIZE];
		faults += a->pages;
		munmap(m, a->pages * PAGE_SIZE);
	}
	sh->w[a->id].ns = now_ns() - t0;
	sh->w[a->id].faults = faults;
	sh->w[a->id].cpu = sched_getcpu();
	(void)sink;
	return NULL;
}

/* Starts t workers (threads, or forked processes), lets them go at once
 * and waits for all; 0 if every one ran. */
static int start_and_wait(struct worker_arg *a, int t, int threads)
{
	pthread_t th[MAX_WORKERS];
	int ok = 1;

	for (int i = 0; i < t; i++) {
		if (threads) {
			ok &= pthread_create(&th[i], NULL, worker, &a[i]) == 0;
		} else if (fork() == 0) {
			worker(&a[i]);
			_exit(0);
		}
	}
	while (__atomic_load_n(&a->sh->ready, __ATOMIC_ACQUIRE) < t)
		sched_yield();
	__atomic_store_n(&a->sh->go, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < t; i++) {
		int st;

		if (threads)
			ok &= pthread_join(th[i], NULL) == 0;
		else
			ok &= wait(&st) > 0 && WIFEXITED(st) &&
			      WEXITSTATUS(st) == 0;
	}
	return ok ? 0 : -1;
}

/* One run's figures: all the workers' faults over the slowest one's
 * time, the mean of each one's own time per fault, the CPUs they ran on. */
struct smp_result {
	double faults_per_s, ns_per_fault;
	long faults;
	int cpus;
};

/* One run of t workers; 0 if every one ran. */
static int smp_run(int t, int threads, long pages, long rounds,
		   struct smp_result *r)
{
	struct smp_shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
				     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct worker_arg a[MAX_WORKERS];
	long long slowest = 0;
	int err;

	memset(r, 0, sizeof(*r));
	if (sh == MAP_FAILED)
		return -1;
	for (int i = 0; i < t; i++)
		a[i] = (struct worker_arg){ sh, i, pages, rounds };
	err = start_and_wait(a, t, threads);
	for (int i = 0; i < t; i++) {
		int seen = 0;

		for (int j = 0; j < i; j++)
			seen |= sh->w[j].cpu == sh->w[i].cpu;
		r->cpus += !seen;
		r->faults += sh->w[i].faults;
		if (sh->w[i].ns > slowest)
			slowest = sh->w[i].ns;
		if (sh->w[i].faults)
			r->ns_per_fault += (double)sh->w[i].ns /
					   sh->w[i].faults / t;
	}
	r->faults_per_s = slowest ? r->faults * 1e9 / slowest : 0;
	munmap(sh, sizeof(*sh));
	return err;
}

static int cmp_rate(const void *a, const void *b)
{
	double x = ((const struct smp_result *)a)->faults_per_s;
	double y = ((const struct smp_result *)b)->faults_per_s;

	return (x > y) - (x < y);
}

/* reps runs of t workers: smp.MODE.T.* of the best (the least disturbed
 * by the host), and the median rate. */
static int smp_report(int t, int threads, long pages, long rounds, int reps)
{
	const char *mode = threads ? "threads" : "procs";
	struct smp_result r[16], *best;
	int err = 0;

	for (int i = 0; i < reps; i++)
		err |= smp_run(t, threads, pages, rounds, &r[i]);
	qsort(r, reps, sizeof(r[0]), cmp_rate);
	best = &r[reps - 1];
	printf("smp.%s.%d.cpus=%d\nsmp.%s.%d.faults=%ld\n"
	       "smp.%s.%d.faults_per_s=%.0f\n"
	       "smp.%s.%d.faults_per_s_median=%.0f\n"
	       "smp.%s.%d.ns_per_fault=%.0f\n",
	       mode, t, best->cpus, mode, t, best->faults, mode, t,
	       best->faults_per_s, mode, t, r[reps / 2].faults_per_s,
	       mode, t, best->ns_per_fault);
	fflush(stdout);
	return err;
}

int smp_bench(const char *list, int threads, long pages, long rounds,
	      int reps)
{
	int err = 0;

	if (reps < 1 || reps > 16)
		reps = 3;
	printf("smp.pages=%ld\nsmp.rounds=%ld\nsmp.repeat=%d\n", pages,
	       rounds, reps);
	for (const char *c = list; *c; c = strchr(c, ',') ?
					   strchr(c, ',') + 1 : "") {
		int t = atoi(c);

		if (t < 1 || t > MAX_WORKERS) {
			fprintf(stderr, "zpbench: %d workers: 1 to %d\n", t,
				MAX_WORKERS);
			return -1;
		}
		err |= smp_report(t, threads, pages, rounds, reps);
	}
	return err;
}
