/* user/tests/fork_wrprotect.c — fork write-protects exactly the parent's
 * private writable pages, and flushes its TLB of them: a write the parent
 * makes straight after fork, before it could have been switched out,
 * faults and copies, so the child never sees it. A shared mapping stays
 * writable: the parent's writes to it take no fault, and the child sees
 * them. */
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define N	64

static void write_all(char *p, int v)
{
	for (int i = 0; i < N; i++)
		p[(long)i * PAGE_SIZE] = v;
}

/* How many of the N pages hold v. */
static int holding(char *p, int v)
{
	int n = 0;

	for (int i = 0; i < N; i++)
		n += p[(long)i * PAGE_SIZE] == v;
	return n;
}

int main(void)
{
	char *priv, *shared, c;
	int go[2], res[2], st = -1, seen[2] = { -1, -1 };
	long f0, f_shared;
	pid_t pid;

	pin_to_one_cpu();	/* the parent runs on after fork */
	tap_plan(5);
	priv = mmap(NULL, N * PAGE_SIZE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	shared = mmap(NULL, N * PAGE_SIZE, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!tap_ok(priv != MAP_FAILED && shared != MAP_FAILED, "mmap %d "
		    "private and %d shared pages", N, N))
		tap_done();
	write_all(priv, 1);	/* the TLB now holds them writable */
	write_all(shared, 1);
	pipe(go);
	pipe(res);
	pid = fork();
	if (pid == 0) {
		read(go[0], &c, 1);
		seen[0] = holding(priv, 1);
		seen[1] = holding(shared, 2);
		write(res[1], seen, sizeof(seen));
		_exit(0);
	}
	/* No system call between fork and these writes. */
	write_all(priv, 2);
	f0 = self_minflt();
	write_all(shared, 2);
	f_shared = self_minflt() - f0;
	write(go[1], "g", 1);
	read(res[0], seen, sizeof(seen));
	waitpid(pid, &st, 0);
	tap_ok(st == 0, "the child exits 0 (%s)", status_str(st));
	tap_ok(seen[0] == N, "the parent's private writes straight after fork "
	       "do not reach the child: it reads its %d pages as they were "
	       "(%d are)", N, seen[0]);
	tap_ok(holding(priv, 2) == N, "the parent reads its own writes");
	tap_ok(f_shared <= 2 && seen[1] == N, "shared pages stay writable: "
	       "the parent's writes take no fault (minflt +%ld) and the child "
	       "sees them (%d of %d)", f_shared, seen[1], N);
	tap_done();
}
