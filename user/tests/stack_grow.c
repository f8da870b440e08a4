/* user/tests/stack_grow.c — the stack VMA grows down to a fault below it
 * (Linux's expand_stack): by whole pages, counted in VmStk, up to
 * RLIMIT_STACK, and never into the guard gap above the mapping below. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define KB	1024UL
#define MB	(1024 * KB)
#define GAP	(256 * PAGE_SIZE)	/* Linux's stack_guard_gap */
#define LIMIT	(8 * MB)		/* RLIMIT_STACK, set below */

/* The [stack] line of /proc/self/maps: 0, or -1 if there is none. */
static int stack_vma(unsigned long *lo, unsigned long *hi)
{
	static char maps[1 << 16];
	char *l;

	if (read_file("/proc/self/maps", maps, sizeof(maps)) <= 0)
		return -1;
	for (l = strtok(maps, "\n"); l; l = strtok(NULL, "\n"))
		if (strstr(l, "[stack]") &&
		    sscanf(l, "%lx-%lx", lo, hi) == 2)
			return 0;
	return -1;
}

/* A child touches the byte at (stack start - below), with a page
 * mapped at (stack start - hole) first when hole is not 0. */
struct probe {
	unsigned long below, hole;
};

static void touch_below(void *a)
{
	struct probe *p = a;
	unsigned long lo, hi, at;

	if (stack_vma(&lo, &hi))
		_exit(2);
	if (p->hole) {
		at = lo - p->hole;
		if (mmap((void *)at, PAGE_SIZE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			 -1, 0) != (void *)at)
			_exit(3);
	}
	poke((char *)(lo - p->below), 1);
}

static int grows(unsigned long below, unsigned long hole)
{
	struct probe p = { below, hole };

	return in_child(touch_below, &p);
}

int main(void)
{
	struct rlimit lim = { LIMIT, LIMIT };
	unsigned long lo = 0, hi = 0, lo2, hi2, below = 64 * KB + 100;
	long long stk0, stk1;
	int st;

	need_proc();
	tap_plan(7);
	setrlimit(RLIMIT_STACK, &lim);	/* the host's may be unlimited */
	st = stack_vma(&lo, &hi);
	if (!tap_ok(st == 0, "/proc/self/maps has [stack] (%#lx-%#lx)", lo,
		    hi))
		tap_done();
	stk0 = self_kb("VmStk");
	poke((char *)(lo - below), 1);
	stack_vma(&lo2, &hi2);
	stk1 = self_kb("VmStk");
	tap_ok(hi2 == hi && lo2 == ((lo - below) & ~(PAGE_SIZE - 1)),
	       "a write %lu bytes below the stack grows it down to that "
	       "byte's page (%#lx-%#lx, was %#lx)", below, lo2, hi2, lo);
	tap_ok(stk1 - stk0 == (long long)(lo - lo2) / 1024, "VmStk grows "
	       "with it: +%lld kB for %lu kB", stk1 - stk0, (lo - lo2) / 1024);
	st = grows(4 * MB, 0);
	tap_ok(st == 0, "a write 4 MiB below grows it, within RLIMIT_STACK "
	       "(%s)", status_str(st));
	st = grows(LIMIT + MB, 0);
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, "a write 9 MiB "
	       "below, past RLIMIT_STACK's 8 MiB, is SIGSEGV (%s)",
	       status_str(st));
	st = grows(2 * MB - GAP - PAGE_SIZE, 2 * MB);
	tap_ok(st == 0, "with a mapping 2 MiB below, a write one page above "
	       "the 1 MiB guard gap grows the stack (%s)", status_str(st));
	st = grows(2 * MB - GAP / 2, 2 * MB);
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, "a write inside "
	       "the guard gap is SIGSEGV (%s)", status_str(st));
	tap_done();
}
