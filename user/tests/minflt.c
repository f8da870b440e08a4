/* user/tests/minflt.c — each fault the kernel resolves counts one minor
 * fault (getrusage's ru_minflt, field 10 of /proc/self/stat); a fault it
 * cannot resolve, which becomes SIGSEGV, counts none. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "ulib.h"

#define N	256
#define BAD	100

static sigjmp_buf back;

/* Field 10 of /proc/self/stat: after comm's ")", the 8th field. */
static long stat_minflt(void)
{
	char buf[1024], *p;
	long v = -1;

	if (read_file("/proc/self/stat", buf, sizeof(buf)) <= 0 ||
	    !(p = strrchr(buf, ')')))
		return -1;
	sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %ld", &v);
	return v;
}

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(back, 1);
}

int main(void)
{
	volatile int bad = 0;
	long f0, f1, f2, s0;
	char *p;

	need_proc();
	tap_plan(4);
	p = mmap(NULL, N * PAGE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!tap_ok(p != MAP_FAILED, "mmap %d pages", N))
		tap_done();
	f0 = self_minflt();
	for (int i = 0; i < N; i++)
		p[(long)i * PAGE_SIZE] = 1;
	f1 = self_minflt();
	tap_ok(f1 - f0 >= N && f1 - f0 <= N + 8, "%d first writes count %d "
	       "minor faults (%+ld)", N, N, f1 - f0);
	signal(SIGSEGV, on_segv);
	sigsetjmp(back, 1);
	if (bad < BAD) {
		bad++;
		peek((void *)16);
	}
	f2 = self_minflt();
	tap_ok(f2 - f1 <= 8, "%d faults that end in SIGSEGV count none "
	       "(%+ld)", BAD, f2 - f1);
	s0 = stat_minflt();
	tap_ok(s0 >= f2 && s0 <= self_minflt(), "/proc/self/stat's field 10 says "
	       "the same (%ld, getrusage %ld)", s0, f2);
	tap_done();
}
