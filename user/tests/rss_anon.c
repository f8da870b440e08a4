/* user/tests/rss_anon.c — RssAnon in /proc/self/status follows private
 * anonymous pages as they are mapped, written and unmapped (fork:
 * rss_fork). It counts what pagemap shows present, whenever the kernel
 * maps it: at the first touch (lazy_mmap checks that), or at mmap. */
#include <stdint.h>
#include <sys/mman.h>

#include "procfs.h"
#include "ulib.h"

#define N	512	/* pages: well above Linux's 64-fault RSS lag */

static void touch(char *p, int from, int to, int v)
{
	int i;

	for (i = from; i < to; i++)
		p[(long)i * PAGE_SIZE] = v;
}

/* The pages of p's N that pagemap shows present, or -1. */
static int present(char *p)
{
	static uint64_t e[N];
	int n = 0;

	if (pagemap_read(0, (unsigned long)p, e, N) != N)
		return -1;
	for (int i = 0; i < N; i++)
		n += !!(e[i] & PM_PRESENT);
	return n;
}

int main(void)
{
	long long a0, a1, a2, a3;
	char *p;

	need_proc();
	tap_plan(6);
	a0 = self_kb("RssAnon");
	tap_ok(a0 > 0, "/proc/self/status has RssAnon (%lld kB)", a0);
	if (is_zpk())
		tap_ok(self_kb("RssZero") >= 0, "zpk's status has RssZero "
		       "(%lld kB)", self_kb("RssZero"));
	else
		tap_ok(self_kb("RssZero") < 0, "Linux's status has no RssZero: "
		       "the parser reports it absent");

	p = mmap(NULL, N * PAGE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!tap_ok(p != MAP_FAILED, "mmap %d anonymous pages", N))
		tap_done();
	a1 = self_kb("RssAnon");
	tap_ok(kb_near(a1 - a0, present(p) * 4LL), "mmap adds what pagemap "
	       "shows present there: %d pages (%+lld kB)", present(p), a1 - a0);
	touch(p, 0, N, 1);
	a2 = self_kb("RssAnon");
	tap_ok(kb_near(a2 - a0, N * 4LL), "with %d pages written, RssAnon is "
	       "%d kB above what it was before the mmap (%+lld)", N, N * 4,
	       a2 - a0);
	munmap(p, N * PAGE_SIZE);
	a3 = self_kb("RssAnon");
	tap_ok(kb_near(a3, a0), "munmap lowers it back (%lld kB, was %lld)",
	       a3, a0);
	tap_done();
}
