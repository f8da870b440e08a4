/* user/tests/zeropage/thread_race.c — threads of one process, one per CPU
 * (2 to 8), each pinned to its own, fault the same page at the same
 * moment, round after round: a read (the zero page, or under off one new
 * page for all), then writes, each thread its own byte; every write must
 * land in the one page the PTE ends up with, and one page per round must
 * be all it costs. Then some threads write-fault pages of their own while
 * one forks over and over, its children checking what they see. The
 * runner's free-page check and mm_verify=exit count every page after it. */
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"
#include "zp.h"

#define N		64	/* rounds: one page each */
#define NF		256	/* pages written while one thread forks */
#define FORKS		20
#define MAX_THREADS	8

static int nthreads;
static char *race, *own;		/* N and NF fresh pages */
static int arrived, generation;		/* the barrier */
static int ready, go;			/* the start, after the baseline */
static int finished, may_exit;		/* the end, before their stacks go */
static int lost[MAX_THREADS], cpu[MAX_THREADS];
static int forks_ok;

static void barrier(void)
{
	spin_barrier(&arrived, &generation, nthreads);
}

/* A fork child: every page of own holds 0 or what its writer wrote
 * (page i: i + 1), and its own writes stay its own. */
static void child_check(void)
{
	int bad = 0;

	for (int i = 0; i < NF; i++) {
		char v = own[i * PAGE_SIZE];

		bad |= v != 0 && v != (char)(i + 1);
	}
	for (int i = 0; i < NF; i += 16)
		own[i * PAGE_SIZE + 1] = 0x5a;
	_exit(bad);
}

/* Thread 0 forks while the others fault; how many children were right. */
static void fork_loop(void)
{
	for (int f = 0; f < FORKS; f++) {
		int st;
		pid_t pid = fork();

		if (pid == 0)
			child_check();
		if (pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
		    WEXITSTATUS(st) == 0)
			forks_ok++;
	}
}

/* The bytes of pg that lack what their thread wrote. */
static int count_lost(volatile char *pg)
{
	int n = 0;

	for (int t = 0; t < nthreads; t++)
		n += pg[t] != (char)(t + 1);
	return n;
}

static void *thread(void *arg)
{
	int id = (int)(long)arg;

	pin_to_nth_cpu(id);
	cpu[id] = sched_getcpu();
	barrier();		/* every thread's stack is in use now */
	__atomic_add_fetch(&ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		sched_yield();
	for (int r = 0; r <= N; r++) {
		volatile char *pg = race + r * PAGE_SIZE;

		barrier();		/* every write of round r - 1 is done */
		if (r > 0)
			lost[id] += count_lost(pg - PAGE_SIZE);
		if (r == N)
			break;
		(void)pg[id];		/* all read-fault page r at once */
		barrier();
		pg[id] = (char)(id + 1);	/* then all write it at once */
	}
	if (id == 0) {
		fork_loop();
	} else {
		for (int i = id - 1; i < NF; i += nthreads - 1)
			own[i * PAGE_SIZE] = (char)(i + 1);
	}
	__atomic_add_fetch(&finished, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&may_exit, __ATOMIC_ACQUIRE))
		sched_yield();
	return NULL;
}

static int count_cpus(void)
{
	cpu_set_t all;

	return sched_getaffinity(0, sizeof(all), &all) ? 1 : CPU_COUNT(&all);
}

int main(void)
{
	pthread_t th[MAX_THREADS];
	struct zp_sample a, b;
	int started = 0, nlost = 0, distinct = 0, intact = 1;

	race = zp_begin(7, N);
	own = zp_map(NF, PROT_READ | PROT_WRITE);
	nthreads = count_cpus();
	nthreads = nthreads < 2 ? 2 : nthreads > MAX_THREADS ? MAX_THREADS :
		   nthreads;
	for (int i = 0; i < nthreads; i++)
		started += pthread_create(&th[i], NULL, thread,
					  (void *)(long)i) == 0;
	if (!own || started != nthreads) {
		tap_note("mmap or pthread_create failed (%d threads)", started);
		return 1;
	}
	while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) != nthreads)
		sched_yield();
	zp_baseline(&a);
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&finished, __ATOMIC_ACQUIRE) != nthreads)
		sched_yield();
	zp_sample(&b);		/* before a join frees a thread's stack */
	__atomic_store_n(&may_exit, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < nthreads; i++) {
		int seen = 0;

		nlost += lost[i];
		for (int j = 0; j < i; j++)
			seen |= cpu[j] == cpu[i];
		distinct += !seen;
	}
	for (int i = 0; i < NF; i++)
		intact &= own[i * PAGE_SIZE] == (char)(i + 1) &&
			  own[i * PAGE_SIZE + 1] == 0;
	tap_note("%d threads on %d distinct CPUs", nthreads, distinct);
	tap_ok(nlost == 0, "%d threads read-faulted, then wrote a byte each "
	       "of, the same fresh page at once, %d rounds: every write is in "
	       "the page mapped after (%d bytes lost)", nthreads, N, nlost);
	zp_ok(zp_count_distinct(race, N) == N,
	      "the %d pages are %d distinct pages, one each", N, N);
	tap_ok(forks_ok == FORKS, "%d forks while the other threads "
	       "write-faulted %d pages: each child saw 0 or the value "
	       "written (%d right)", FORKS, NF, forks_ok);
	tap_ok(intact, "every page written holds its value, the children's "
	       "writes stayed theirs");
	zp_zpk_ok(b.anon - a.anon == (long long)(N + NF) * PAGE_SIZE / 1024,
		  "RssAnon grew by exactly the %d pages written (%lld kB)",
		  N + NF, b.anon - a.anon);
	zp_zpk_ok(b.file == a.file && (b.zero < 0 || b.zero == a.zero),
		  "RssFile and RssZero back where they were (%lld, %lld kB)",
		  b.file - a.file, b.zero - a.zero);
	tap_done();
}
