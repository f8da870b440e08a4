/* user/tests/vmstat_smp.c — /proc/vmstat stays exact while CPUs count at
 * once: one process per CPU (up to 4), each pinned to its own, read-faults
 * N fresh pages at the same moment as the others; zero_page_map must rise
 * by exactly what they did. Then a state moved on two CPUs: shared memory
 * written on one CPU and freed on another must bring nr_shmem back
 * exactly (a CPU's own share of a state may go below 0). zpk's counters
 * are per CPU and summed at every read (zpk/vmstat.h; the smp lab). */
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"
#include "zp.h"

#define N	256	/* pages each process reads */
#define M	64	/* shared pages written on one CPU, freed on another */
#define MAXP	4

static int cpus(void)
{
	cpu_set_t s;

	return sched_getaffinity(0, sizeof(s), &s) ? 1 : CPU_COUNT(&s);
}

/* One reader: on CPU k of its own, after the others are ready too. */
static void reader(int k, int *sync)
{
	volatile char sink = 0;
	char *p;

	pin_to_nth_cpu(k);
	p = mmap(NULL, N * PAGE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		_exit(1);
	spin_barrier(&sync[0], &sync[1], sync[2] + 1);	/* all ready */
	spin_barrier(&sync[0], &sync[1], sync[2] + 1);	/* the sample, go */
	for (int i = 0; i < N; i++)
		sink += p[(long)i * PAGE_SIZE];
	munmap(p, N * PAGE_SIZE);
	(void)sink;
	_exit(0);
}

static void readers_on_every_cpu(int ncpu)
{
	int np = ncpu < 2 ? 2 : ncpu > MAXP ? MAXP : ncpu, ok = 1;
	int *sync = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long long map0, map1, pgf0, pgf1;
	int want = zp_mode() == ZP_OFF ? 0 : np * N;

	if (sync == MAP_FAILED)
		tap_done();
	sync[2] = np;
	for (int k = 0; k < np; k++)
		if (fork() == 0)
			reader(k, sync);
	spin_barrier(&sync[0], &sync[1], np + 1);
	zp_vmstat("zero_page_map");	/* its buffer is touched now */
	map0 = zp_vmstat("zero_page_map");
	pgf0 = zp_vmstat("pgfault");
	spin_barrier(&sync[0], &sync[1], np + 1);
	for (int k = 0; k < np; k++) {
		int st;

		ok &= wait(&st) > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
	}
	map1 = zp_vmstat("zero_page_map");
	pgf1 = zp_vmstat("pgfault");
	tap_ok(ok, "%d processes on %d CPUs read %d pages each", np, ncpu, N);
	zp_zpk_ok(map1 - map0 == want, "zero_page_map rose by exactly %d "
		  "(%+lld)", want, map1 - map0);
	tap_ok(pgf1 - pgf0 >= np * N, "pgfault rose by at least %d (%+lld)",
	       np * N, pgf1 - pgf0);
	munmap(sync, PAGE_SIZE);
}

/* Written (allocated) on the first CPU by a child, freed on the last by
 * the parent's munmap, the last mapping of it. */
static void shmem_across_cpus(int ncpu)
{
	long long s0, s1, s2;
	char *p;
	int st;

	if (ncpu < 2) {
		tap_skip("nr_shmem freed on another CPU: one CPU here");
		return;
	}
	s0 = zp_vmstat("nr_shmem");
	p = mmap(NULL, M * PAGE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		tap_done();
	if (fork() == 0) {
		pin_to_nth_cpu(0);
		for (int i = 0; i < M; i++)
			p[(long)i * PAGE_SIZE] = 1;
		_exit(0);
	}
	wait(&st);
	s1 = zp_vmstat("nr_shmem");
	pin_to_nth_cpu(ncpu - 1);
	munmap(p, M * PAGE_SIZE);
	s2 = zp_vmstat("nr_shmem");
	zp_zpk_ok(s1 - s0 == M && s2 == s0, "nr_shmem %+lld on CPU 0's writes "
		  "(want %+d), back by %lld on CPU %d's munmap (want %lld)",
		  s1 - s0, M, s2 - s1, ncpu - 1, s0 - s1);
}

int main(void)
{
	int ncpu = cpus();

	tap_plan(4);
	need_proc();
	zp_note_mode();
	readers_on_every_cpu(ncpu);
	shmem_across_cpus(ncpu);
	tap_done();
}
