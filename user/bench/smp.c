/* user/bench/smp.c — zpbench --threads/--procs/--forks T: the 2009 story,
 * measured. T workers, each pinned to a CPU of its own, map a fresh
 * anonymous region, read-fault it page by page and unmap it, round after
 * round, all at once. Under zero_page=refcount every such fault and every
 * unmapped page writes the zero page's struct page, one cache line that
 * all CPUs share; under special nothing there is shared; off allocates
 * and clears a page each time. Threads also share one mm (its mmap_lock
 * and RSS counters); processes share nothing but the zero page. With
 * --forks each process also forks a child over its zero-mapped region
 * every round, and reaps it: fork copies, exit tears down. The
 * figures are wall time (no -icount with several CPUs): docs/bench.md.
 * With --c2c the rounds of each run are the c2c plugin's window instead
 * (docs/c2c.md): one run per T, nothing timed. With --huge each page is
 * a 2 MiB-aligned huge page asked for with MADV_HUGEPAGE, one read
 * each: the huge zero page's sequel (2012's global count, 2016's per mm). */
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

#include "huge.h"
#include "marker.h"
#include "smp.h"
#include "ulib.h"

#define MAX_WORKERS	8

static const char *const smp_modes[NR_SMP_MODES] = {
	[SMP_PROCS] = "procs", [SMP_THREADS] = "threads", [SMP_FORKS] = "forks",
};

static int c2c_mode, c2c_windows, huge_mode;

/* What the workers share: a start line, so that they fault at the same
 * time, and each one's figures. MAP_SHARED, for the processes. */
struct smp_shared {
	int ready, go;
	int done, release;	/* --c2c: workers through their rounds */
	struct {
		int cpu;		/* where it ran (sched_getcpu at the end) */
		long faults;		/* page faults it took */
		long long ns;		/* wall time of its rounds */
	} w[MAX_WORKERS];
};

struct worker_arg {
	struct smp_shared *sh;
	int id, t, forks;
	long pages, rounds;
};

long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Waits for a flag: a pause loop under the plugin (tools/c2c/marker.h). */
static void spin_until(int *flag)
{
	c2c_spin_until(flag, 1, c2c_mode);
}

/* --c2c: the last worker through its rounds closes the window, then lets
 * the others go on, so that no exit or report falls inside it. */
static void c2c_worker_done(struct smp_shared *sh, int t)
{
	if (__atomic_add_fetch(&sh->done, 1, __ATOMIC_ACQ_REL) == t) {
		c2c_mark(C2C_MARK_STOP);
		__atomic_store_n(&sh->release, 1, __ATOMIC_RELEASE);
	}
	spin_until(&sh->release);
}

/* --forks: a child that exits at once, reaped: fork copies the region's
 * zero-mapped PTEs, the child's exit tears them down (the Altix's 2007
 * livelock was in that teardown, seed 006). */
static void fork_exit_wait(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

/* One round's region: pages small pages, or (--huge) huge ones. */
static char *map_round(long pages, size_t *len, char **base)
{
	if (huge_mode)
		return map_huge(pages, base, len);
	*len = pages * PAGE_SIZE;
	*base = mmap(NULL, *len, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return *base == MAP_FAILED ? NULL : *base;
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
	spin_until(&sh->go);
	t0 = now_ns();
	for (long r = 0; r < a->rounds; r++) {
		size_t len, step = huge_mode ? HPAGE_SIZE : PAGE_SIZE;
		char *base, *m = map_round(a->pages, &len, &base);

		if (!m)
			break;
		for (long k = 0; k < a->pages; k++)
			sink += m[k * step];
		faults += a->pages;
		if (a->forks)
			fork_exit_wait();
		munmap(base, len);
	}
	if (c2c_mode)
		c2c_worker_done(sh, a->t);
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
	if (c2c_mode)
		c2c_mark(C2C_MARK_START);
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
static int smp_run(int t, int mode, long pages, long rounds,
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
		a[i] = (struct worker_arg){ sh, i, t, mode == SMP_FORKS, pages,
					    rounds };
	err = start_and_wait(a, t, mode == SMP_THREADS);
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
static int smp_report(int t, int mode_id, long pages, long rounds, int reps)
{
	const char *mode = smp_modes[mode_id];
	struct smp_result r[16], *best;
	int err = 0;

	for (int i = 0; i < reps; i++)
		err |= smp_run(t, mode_id, pages, rounds, &r[i]);
	qsort(r, reps, sizeof(r[0]), cmp_rate);
	best = &r[reps - 1];
	if (c2c_mode) {		/* under -icount, time is instructions */
		printf("smp.%s.%d.c2c_window=%d\nsmp.%s.%d.cpus=%d\n"
		       "smp.%s.%d.faults=%ld\n", mode, t, ++c2c_windows,
		       mode, t, best->cpus, mode, t, best->faults);
		fflush(stdout);
		return err;
	}
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

/* --c2c: map the marker page, shared so that a forked worker's store to
 * it is no COW fault, and touch it away from the two marker addresses. */
int smp_c2c(void)
{
	char *m = mmap((void *)C2C_MARK_START, PAGE_SIZE, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (m != (char *)C2C_MARK_START) {
		perror("zpbench: --c2c: mmap of the marker page");
		return -1;
	}
	m[PAGE_SIZE / 2] = 1;
	c2c_mode = 1;
	return 0;
}

void smp_huge(void)
{
	huge_mode = 1;
}

int smp_bench(const char *list, int mode, long pages, long rounds,
	      int reps)
{
	int err = 0;

	if (reps < 1 || reps > 16 || c2c_mode)
		reps = c2c_mode ? 1 : 3;
	printf("smp.pages=%ld\nsmp.huge=%d\nsmp.rounds=%ld\nsmp.repeat=%d\n",
	       pages, huge_mode, rounds, reps);
	for (const char *c = list; *c; c = strchr(c, ',') ?
					   strchr(c, ',') + 1 : "") {
		int t = atoi(c);

		if (t < 1 || t > MAX_WORKERS) {
			fprintf(stderr, "zpbench: %d workers: 1 to %d\n", t,
				MAX_WORKERS);
			return -1;
		}
		err |= smp_report(t, mode, pages, rounds, reps);
	}
	return err;
}
