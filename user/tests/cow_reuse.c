/* user/tests/cow_reuse.c — a write to a page that fork shared reuses it,
 * with no copy, once no one else holds it (the child has exited: Linux's
 * wp_can_reuse_anon_folio), and the reused page is exclusive again, so
 * that mprotect can give the write back without a fault. While the child
 * lives, the same write copies. */
#include <stdint.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procfs.h"
#include "ulib.h"

#define N	64

static uint64_t pfn[N];

/* How many of the N pages at p map the pfns in pfn[] (0 if unknown). */
static int same_pfns(char *p)
{
	uint64_t e[N];
	int same = 0;

	if (pagemap_read(0, (unsigned long)p, e, N) != N)
		return 0;
	for (int i = 0; i < N; i++)
		same += (e[i] & PM_PRESENT) && PM_PFN(e[i]) == pfn[i];
	return same;
}

static void save_pfns(char *p)
{
	uint64_t e[N];

	pagemap_read(0, (unsigned long)p, e, N);
	for (int i = 0; i < N; i++)
		pfn[i] = e[i] & PM_PRESENT ? PM_PFN(e[i]) : 0;
}

/* Writes one byte of each page: how many faults it took. */
static long write_all(char *p, int v)
{
	long f0 = self_minflt();

	for (int i = 0; i < N; i++)
		p[(long)i * PAGE_SIZE] = v;
	return self_minflt() - f0;
}

int main(void)
{
	int go[2], st = -1, same;
	long faults;
	pid_t pid;
	char *p, c;

	need_proc();
	pin_to_one_cpu();
	tap_plan(7);
	p = mmap(NULL, N * PAGE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!tap_ok(p != MAP_FAILED, "mmap %d pages", N))
		tap_done();
	write_all(p, 1);
	save_pfns(p);
	if (!tap_ok(pfn[0] && pfn[N - 1], "pagemap shows their pfns "
		    "(%#llx...)", (unsigned long long)pfn[0]))
		tap_done();

	/* The child exits at once: the pages are the parent's alone. */
	pid = fork();
	if (pid == 0)
		_exit(0);
	waitpid(pid, &st, 0);
	faults = write_all(p, 2);
	same = same_pfns(p);
	tap_ok(faults >= N && faults <= N + 4, "after fork the parent's "
	       "writes fault, once per page (minflt +%ld)", faults);
	tap_ok(same == N, "once the child has exited, each write reuses "
	       "its page: %d of %d keep their pfn", same, N);
	mprotect(p, N * PAGE_SIZE, PROT_READ);
	mprotect(p, N * PAGE_SIZE, PROT_READ | PROT_WRITE);
	faults = write_all(p, 3);
	tap_ok(faults <= 2, "a reused page is exclusive: after mprotect "
	       "read-only and back, writes take no fault (minflt +%ld)",
	       faults);

	/* The child stays until the parent has written: now writes copy. */
	save_pfns(p);
	pipe(go);
	pid = fork();
	if (pid == 0) {
		read(go[0], &c, 1);
		_exit(p[0] == 3 && p[(N - 1) * PAGE_SIZE] == 3 ? 0 : 1);
	}
	faults = write_all(p, 4);
	same = same_pfns(p);
	write(go[1], "g", 1);
	waitpid(pid, &st, 0);
	tap_ok(same == 0, "while the child lives, each write copies: %d of "
	       "%d keep their pfn", same, N);
	tap_ok(st == 0, "and the child still reads what was there before "
	       "(%s)", status_str(st));
	tap_done();
}
