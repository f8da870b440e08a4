/* user/tests/c2c_pingpong.c — two threads on two CPUs each add 1 to a
 * counter of their own N times: first with both counters in one cache
 * line, then 64 bytes apart, each phase inside a window of the c2c plugin
 * (docs/c2c.md). Alone it checks that both counted exactly; under the
 * plugin, tests/qemu/c2c.sh checks the coherence model: at least N - 1
 * transfers of the shared line, about none when padded. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mman.h>

#include "marker.h"
#include "ulib.h"

#define N		1000

/* Line 0 holds both shared counters; lines 1 and 2 one padded counter
 * each; line 3 the flags the three threads meet on. */
static struct {
	volatile long shared[2];
	char pad0[64 - 2 * sizeof(long)];
	volatile long padded[2][8];
	int ready, go, done;
} lines __attribute__((aligned(64)));

static volatile long *counter[2];
static cpu_set_t all_cpus;	/* the threads pin among these, not main's one */
static int marks;	/* the marker page is mapped */

static void mark(unsigned long addr)
{
	if (marks)
		c2c_mark(addr);
}

/* Pauses with a CPU per thread, else yields (tools/c2c/marker.h). */
static void spin_until(int *flag, int value)
{
	c2c_spin_until(flag, value, CPU_COUNT(&all_cpus) >= 3);
}

static void *adder(void *arg)
{
	long id = (long)arg;

	sched_setaffinity(0, sizeof(all_cpus), &all_cpus);
	pin_to_nth_cpu(id);
	__atomic_add_fetch(&lines.ready, 1, __ATOMIC_ACQ_REL);
	spin_until(&lines.go, 1);
	for (int i = 0; i < N; i++)
		*counter[id] = *counter[id] + 1;
	if (__atomic_add_fetch(&lines.done, 1, __ATOMIC_ACQ_REL) == 2)
		mark(C2C_MARK_STOP);
	return NULL;
}

/* One window: both threads add N to their counter. */
static int phase(volatile long *c0, volatile long *c1)
{
	pthread_t t[2];

	counter[0] = c0, counter[1] = c1;
	lines.ready = lines.go = lines.done = 0;
	for (long i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, adder, (void *)i))
			return -1;
	spin_until(&lines.ready, 2);
	mark(C2C_MARK_START);
	__atomic_store_n(&lines.go, 1, __ATOMIC_RELEASE);
	spin_until(&lines.done, 2);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	return 0;
}

int main(void)
{
	void *m = mmap((void *)C2C_MARK_START, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
		       -1, 0);

	tap_plan(3);
	marks = m == (void *)C2C_MARK_START;
	if (marks)	/* its fault before the window, not in it */
		((volatile char *)m)[2048] = 1;
	tap_ok(marks, "the c2c marker page maps at %#lx", C2C_MARK_START);
	/* The main thread waits on a third CPU when there is one. */
	sched_getaffinity(0, sizeof(all_cpus), &all_cpus);
	pin_to_nth_cpu(2);
	printf("c2c_pingpong: n=%d shared=%p padded=%p,%p\n", N,
	       (void *)lines.shared, (void *)lines.padded[0],
	       (void *)lines.padded[1]);
	fflush(stdout);
	tap_ok(phase(&lines.shared[0], &lines.shared[1]) == 0 &&
	       lines.shared[0] == N && lines.shared[1] == N,
	       "window 1: two counters in one line, each counted to %d", N);
	tap_ok(phase(&lines.padded[0][0], &lines.padded[1][0]) == 0 &&
	       lines.padded[0][0] == N && lines.padded[1][0] == N,
	       "window 2: two counters a line apart, each counted to %d", N);
	tap_done();
}
