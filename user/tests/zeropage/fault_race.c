/* user/tests/zeropage/fault_race.c — one child per CPU (up to 8), each
 * pinned to its own, fault the same pages at the same moment, round after
 * round: read faults of one fresh page (the zero page, shared by every
 * process, is counted from all CPUs at once under refcount) and then
 * writes to it; COW writes to a page all of them share with the parent,
 * and to one the parent no longer maps (the last writer reuses it, the
 * others copy: only one may). After each round's writes, every child must
 * still see its own values. The runner's free-page check and mm_verify=exit
 * count every page after it. Separate processes, so it runs on Linux
 * too; with one CPU the children take turns. */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"
#include "zp.h"

#define N		64	/* rounds, and pages of each region */
#define MAX_CHILDREN	8

/* In a MAP_SHARED page: every child's. */
struct shared {
	int children;
	int arrived, generation;	/* the barrier */
	int cpu[MAX_CHILDREN];		/* where each child ran its rounds */
};

static struct shared *sh;

/* The child's rounds; its exit status is a bit per kind of failure. */
static void child(int id, char *zero, char *kept, char *left)
{
	struct zp_sample a, b;
	int bad = 0;
	char v = (char)(id + 1);

	pin_to_nth_cpu(id);
	zp_baseline(&a);
	sh->cpu[id] = sched_getcpu();
	for (int r = 0; r < N; r++) {
		char *z = zero + r * PAGE_SIZE, *k = kept + r * PAGE_SIZE;
		char *l = left + r * PAGE_SIZE;

		spin_barrier(&sh->arrived, &sh->generation, sh->children);
		bad |= peek(z) != 0;		/* all read-fault it at once */
		spin_barrier(&sh->arrived, &sh->generation, sh->children);
		poke(z, v);			/* then all COW it at once */
		poke(k, v);
		poke(l, v);
		bad |= (peek(z) != v) << 1;
		bad |= (peek(k) != v || peek(k + 1) != (char)r) << 2;
		bad |= (peek(l) != v || peek(l + 1) != (char)(r + 1)) << 3;
	}
	zp_sample(&b);
	/* Every zero page became one of our own; the COW copies replaced
	 * pages already counted. */
	bad |= !kb_near(b.anon - a.anon, N * PAGE_SIZE / 1024) << 4;
	bad |= !kb_near(b.file - a.file, 0) << 5;
	_exit(bad);
}

static int count_cpus(void)
{
	cpu_set_t all;

	return sched_getaffinity(0, sizeof(all), &all) ? 1 : CPU_COUNT(&all);
}

int main(void)
{
	char *zero, *kept, *left;
	int children, bits = 0, exited = 0, distinct = 0;
	pid_t pid[MAX_CHILDREN];

	zero = zp_begin(5, N);
	sh = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	kept = mmap(NULL, N * PAGE_SIZE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	left = mmap(NULL, N * PAGE_SIZE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || kept == MAP_FAILED || left == MAP_FAILED) {
		tap_note("mmap failed");
		return 1;
	}
	for (int i = 0; i < N; i++) {
		memset(kept + i * PAGE_SIZE, i, 2);
		memset(left + i * PAGE_SIZE, i + 1, 2);
	}
	children = count_cpus();
	if (children < 2)
		children = 2;	/* they take turns: still a race of sorts */
	if (children > MAX_CHILDREN)
		children = MAX_CHILDREN;
	sh->children = children;
	for (int i = 0; i < children; i++) {
		pid[i] = fork();
		if (pid[i] == 0)
			child(i, zero, kept, left);
	}
	/* The children alone map left now: the last to write each page
	 * reuses it. */
	munmap(left, N * PAGE_SIZE);
	for (int i = 0; i < children; i++) {
		int st;

		if (pid[i] > 0 && waitpid(pid[i], &st, 0) == pid[i] &&
		    WIFEXITED(st)) {
			exited++;
			bits |= WEXITSTATUS(st);
		}
	}
	for (int i = 0; i < children; i++) {
		int seen = 0;

		for (int j = 0; j < i; j++)
			seen |= sh->cpu[j] == sh->cpu[i];
		distinct += !seen;
	}
	tap_note("%d children on %d distinct CPUs", children, distinct);
	tap_ok(exited == children && !(bits & 3),
	       "%d children read-faulted then wrote the same fresh page at once, "
	       "%d rounds: zero, then each its own value (%d exited, bits %#x)",
	       children, N, exited, bits);
	tap_ok(!(bits & 0xc), "COW writes at once to pages shared with the "
	       "parent, and to pages only the children map: each child its "
	       "own copy, the rest of the page kept");
	tap_ok(!(bits & 0x30), "each child's RssAnon grew by exactly its %d "
	       "written zero pages, RssFile unchanged", N);
	tap_ok(zp_read(zero, N) == 0 && peek(kept + 5 * PAGE_SIZE) == 5 &&
	       peek(kept + (N - 1) * PAGE_SIZE + 1) == (char)(N - 1),
	       "the parent's pages are untouched by the children's writes");
	tap_done();
}
