/* user/tests/cow_fork.c — fork shares anonymous pages copy-on-write: the
 * child reads them without faults, writes fault and copy, values private. */
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define N 256	/* pages: 1 MiB, well above the noise of a fork */

struct report {
	long free_fork, free_read, free_write;	/* sysinfo free pages */
	long read_faults, write_faults;		/* minflt deltas */
	int read_ok, write_ok, private_ok;
};

/* Every page i holds (i + seed) in each of its bytes? */
static int holds(unsigned char *buf, int seed)
{
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < PAGE_SIZE; j += 512)
			if (buf[i * PAGE_SIZE + j] != (unsigned char)(i + seed))
				return 0;
	return 1;
}

static void fill(unsigned char *buf, int seed)
{
	int i;

	for (i = 0; i < N; i++)
		memset(buf + i * PAGE_SIZE, i + seed, PAGE_SIZE);
}

static void child(unsigned char *buf, int res, int go)
{
	struct report r;
	long f0, f1, f2;
	char c;

	memset(&r, 0, sizeof(r));
	r.free_fork = sysinfo_free_pages();
	f0 = self_minflt();
	r.read_ok = holds(buf, 1);
	f1 = self_minflt();
	r.free_read = sysinfo_free_pages();
	fill(buf, 2);
	f2 = self_minflt();
	r.free_write = sysinfo_free_pages();
	r.write_ok = holds(buf, 2);
	r.read_faults = f1 - f0;
	r.write_faults = f2 - f1;
	write(res, &r, sizeof(r));
	/* Wait for the parent to rewrite its copy, then look at ours. */
	read(go, &c, 1);
	r.private_ok = holds(buf, 2);
	write(res, &r, sizeof(r));
	_exit(0);
}

int main(void)
{
	long free0, free1, free2, f0, f1;
	int res[2], go[2], st, zpk = is_zpk(), parent_ok;
	unsigned char *buf;
	struct report r;
	ssize_t n;
	pid_t pid;

	pin_to_one_cpu();	/* free pages are counted across the fork */
	tap_plan(12);
	buf = mmap(NULL, N * PAGE_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!tap_ok(buf != MAP_FAILED, "mmap %d pages", N))
		tap_done();
	fill(buf, 1);
	pipe(res);
	pipe(go);

	free0 = sysinfo_free_pages();
	pid = fork();
	if (pid == 0)
		child(buf, res[1], go[0]);
	memset(&r, 0, sizeof(r));
	n = read(res[0], &r, sizeof(r));
	parent_ok = holds(buf, 1);
	free1 = sysinfo_free_pages();
	f0 = self_minflt();
	fill(buf, 3);
	f1 = self_minflt();
	free2 = sysinfo_free_pages();
	write(go[1], "g", 1);
	if (n == sizeof(r))
		n = read(res[0], &r, sizeof(r));
	waitpid(pid, &st, 0);

	tap_ok(n == sizeof(r) && st == 0, "child reported back and exited 0 "
	       "(%s)", status_str(st));
	tap_ok(r.read_ok, "child reads the parent's data after fork");
	tap_ok(r.read_faults <= N / 16, "child's reads of %d shared pages "
	       "take few faults (minflt +%ld)", N, r.read_faults);
	tap_ok(r.write_faults >= N && r.write_faults <= N + N / 8,
	       "child's writes fault once per page (minflt +%ld for %d "
	       "pages)", r.write_faults, N);
	tap_ok(r.write_ok, "child sees its own writes");
	tap_ok(parent_ok, "parent does not see the child's writes");
	tap_ok(f1 - f0 >= N && f1 - f0 <= N + N / 8, "parent's writes after "
	       "fork fault too: pages were write-protected (minflt +%ld)",
	       f1 - f0);
	tap_ok(r.private_ok, "child does not see the parent's later writes");

	/* Free-page figures only mean something on zpk: on Linux sysinfo
	 * is system-wide and other processes move it. */
	if (zpk) {
		tap_ok(free0 - r.free_fork < N / 4, "fork copies no pages: "
		       "free pages fell by %ld (< %d)", free0 - r.free_fork,
		       N / 4);
		tap_ok(r.free_read - r.free_write >= N &&
		       r.free_read - r.free_write <= N + N / 8,
		       "child's writes allocate about %d pages (%ld)", N,
		       r.free_read - r.free_write);
		tap_ok(free1 - free2 < N / 8, "parent's writes, once the child "
		       "has its copies, cost no pages (%ld)", free1 - free2);
	} else {
		tap_note("Linux: fork %+ld pages, child reads %+ld, child "
			 "writes %+ld, parent writes %+ld",
			 r.free_fork - free0, r.free_read - r.free_fork,
			 r.free_write - r.free_read, free2 - free1);
		tap_skip("fork copies no pages: zpk-only (Linux sysinfo "
			 "free RAM is system-wide)");
		tap_skip("child's writes allocate about %d pages: zpk-only", N);
		tap_skip("parent's writes after the child's copies cost no "
			 "pages: zpk-only");
	}
	tap_done();
}
