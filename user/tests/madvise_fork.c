/* user/tests/madvise_fork.c — MADV_DONTFORK/DOFORK (the child has no
 * mapping there) and MADV_WIPEONFORK/KEEPONFORK (the child reads zeros),
 * with half of each range written and half only read (zero pages). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define N	64		/* pages per range */
#define LEN	(N * PAGE_SIZE)

/* What the child found, for the parent's TAP lines. */
struct seen {
	int dontfork_gone, wipe_zero, wipe_rss0, keep_data, dofork_data;
	int grandchild_zero, vmsize_ok, vmdata_ok;
	long long vmsize, vmdata;
};

static char *dontfork, *wipe, *keep, *dofork;
static struct seen *sh;

/* Writes the first half (real pages), reads the second (zero pages
 * where the policy maps them). */
static void touch(char *p)
{
	volatile char sink = 0;

	memset(p, 0x5a, LEN / 2);
	for (int i = N / 2; i < N; i++)
		sink += p[i * PAGE_SIZE];
	(void)sink;
}

static int all(const char *p, int first, int last, char v)
{
	for (int i = first; i < last; i++)
		for (int j = 0; j < PAGE_SIZE; j += 256)
			if (p[i * PAGE_SIZE + j] != v)
				return 0;
	return 1;
}

/* The same data the parent put there: 0x5a, then zeros. */
static int parent_data(const char *p)
{
	return all(p, 0, N / 2, 0x5a) && all(p, N / 2, N, 0);
}

/* The smaps block of the VMA holding p (its neighbours may have merged
 * with it): its "key" value (kB), or its VmFlags line into flags; -1 if
 * there is no such VMA. */
static long long vma_field(const void *p, const char *key, char *flags,
			   size_t n)
{
	static char buf[65536];
	unsigned long a = (unsigned long)p, lo, hi;
	char *s, *e;

	if (read_file("/proc/self/smaps", buf, sizeof(buf)) < 0)
		return -1;
	for (s = buf; s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL)
		if (sscanf(s, "%lx-%lx ", &lo, &hi) == 2 && lo <= a && a < hi)
			break;
	if (!s)
		return -1;
	if (flags) {
		s = strstr(s, "VmFlags:");
		e = s ? strchr(s, '\n') : NULL;
		if (!e || (size_t)(e - s) >= n)
			return -1;
		memcpy(flags, s, (size_t)(e - s));
		flags[e - s] = '\0';
		return 0;
	}
	s = strstr(s, key);
	return s ? atoll(s + strlen(key)) : -1;
}

static int vma_exists(const void *p)
{
	char f[256];

	return vma_field(p, NULL, f, sizeof(f)) == 0;
}

static void child(long long parent_vmsize, long long parent_vmdata)
{
	pid_t pid;
	int status;

	sh->vmsize = self_kb("VmSize");
	sh->vmsize_ok = sh->vmsize == parent_vmsize - LEN / 1024;
	sh->vmdata = self_kb("VmData");
	sh->vmdata_ok = sh->vmdata == parent_vmdata - LEN / 1024;
	sh->dontfork_gone = !vma_exists(dontfork);
	sh->wipe_rss0 = vma_field(wipe, "\nRss:", NULL, 0) == 0;
	sh->wipe_zero = all(wipe, 0, N, 0);
	sh->keep_data = parent_data(keep);
	sh->dofork_data = parent_data(dofork);
	memset(wipe, 0x33, LEN);	/* the parent must not see this */
	pid = fork();			/* VM_WIPEONFORK stays on the VMA */
	if (pid == 0)
		_exit(all(wipe, 0, N, 0) ? 0 : 1);
	waitpid(pid, &status, 0);
	sh->grandchild_zero = WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static char *map_anon(void)
{
	char *p = mmap(NULL, LEN, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void test_errors(void)
{
	char *shared = mmap(NULL, LEN, PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char *file = NULL, *hole;
	int fd, r, err;

	errno = 0;
	r = madvise(shared, LEN, MADV_WIPEONFORK);
	err = errno;
	tap_ok(r == -1 && err == EINVAL,
	       "MADV_WIPEONFORK on shared anonymous memory: EINVAL (%s)",
	       strerror(err));
	tap_ok(madvise(shared, LEN, MADV_KEEPONFORK) == 0 &&
	       madvise(shared, LEN, MADV_DONTFORK) == 0 &&
	       madvise(shared, LEN, MADV_DOFORK) == 0,
	       "KEEPONFORK, DONTFORK and DOFORK on shared memory: 0");
	fd = open("/tmp/madvise_fork", O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0 && ftruncate(fd, PAGE_SIZE) == 0)
		file = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE, fd, 0);
	errno = 0;
	r = file && file != MAP_FAILED ? madvise(file, PAGE_SIZE,
						 MADV_WIPEONFORK) : 0;
	err = errno;
	tap_ok(r == -1 && err == EINVAL,
	       "MADV_WIPEONFORK on a private file mapping: EINVAL (%s)",
	       strerror(err));
	if (file && file != MAP_FAILED)
		munmap(file, PAGE_SIZE);
	if (fd >= 0) {
		close(fd);
		unlink("/tmp/madvise_fork");
	}
	/* A hole in the middle of the range: ENOMEM. */
	hole = map_anon();
	munmap(hole + PAGE_SIZE, PAGE_SIZE);
	errno = 0;
	r = madvise(hole, 3 * PAGE_SIZE, MADV_DONTFORK);
	err = errno;
	tap_ok(r == -1 && err == ENOMEM, "MADV_DONTFORK over a hole: ENOMEM (%s)",
	       strerror(err));
	errno = 0;
	r = madvise(hole + 1, PAGE_SIZE, MADV_WIPEONFORK);
	err = errno;
	tap_ok(r == -1 && err == EINVAL, "an unaligned start: EINVAL (%s)",
	       strerror(err));
	munmap(hole, LEN);
	munmap(shared, LEN);
}

int main(void)
{
	char flags[256];
	long long vmsize, vmdata;
	int status;
	pid_t pid;

	tap_plan(21);
	need_proc();
	sh = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	dontfork = map_anon();
	wipe = map_anon();
	keep = map_anon();
	dofork = map_anon();
	if (!dontfork || !wipe || !keep || !dofork || sh == MAP_FAILED) {
		tap_ok(0, "mmap the ranges");
		tap_done();
	}
	touch(dontfork);
	touch(wipe);
	touch(keep);
	touch(dofork);
	tap_ok(madvise(dontfork, LEN, MADV_DONTFORK) == 0 &&
	       madvise(wipe, LEN, MADV_WIPEONFORK) == 0 &&
	       madvise(keep, LEN, MADV_WIPEONFORK) == 0 &&
	       madvise(keep, LEN, MADV_KEEPONFORK) == 0 &&
	       madvise(dofork, LEN, MADV_DONTFORK) == 0 &&
	       madvise(dofork, LEN, MADV_DOFORK) == 0,
	       "madvise DONTFORK, WIPEONFORK, WIPE+KEEPONFORK, DONT+DOFORK: 0");
	tap_ok(vma_field(dontfork, NULL, flags, sizeof(flags)) == 0 &&
	       strstr(flags, " dc"), "smaps VmFlags of the DONTFORK range has dc");
	tap_ok(vma_field(wipe, NULL, flags, sizeof(flags)) == 0 &&
	       strstr(flags, " wf"), "smaps VmFlags of the WIPEONFORK range has wf");
	tap_ok(vma_field(keep, NULL, flags, sizeof(flags)) == 0 &&
	       !strstr(flags, " wf") && !strstr(flags, " dc"),
	       "after KEEPONFORK neither flag shows");
	tap_ok(vma_field(dofork, NULL, flags, sizeof(flags)) == 0 &&
	       !strstr(flags, " dc"), "after DOFORK dc is gone");

	vmsize = self_kb("VmSize");
	vmdata = self_kb("VmData");
	pid = fork();
	if (pid == 0) {
		child(vmsize, vmdata);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "the child ran (%s)", status_str(status));
	tap_ok(sh->dontfork_gone, "the child has no mapping at the DONTFORK range");
	tap_ok(sh->vmsize_ok, "the child's VmSize lacks it (%lld kB, parent %lld kB)",
	       sh->vmsize, vmsize);
	tap_ok(sh->vmdata_ok, "and its VmData (%lld kB, parent %lld kB)",
	       sh->vmdata, vmdata);
	tap_ok(sh->wipe_rss0, "the child's WIPEONFORK range starts with Rss 0 kB");
	tap_ok(sh->wipe_zero, "the child reads zeros in the WIPEONFORK range");
	tap_ok(sh->grandchild_zero, "the child's own child reads zeros there too");
	tap_ok(sh->keep_data, "after KEEPONFORK the child sees the parent's data");
	tap_ok(sh->dofork_data, "after DOFORK the child sees the parent's data");
	tap_ok(parent_data(wipe) && parent_data(dontfork),
	       "the parent's data stayed (the child's writes went elsewhere)");

	pid = fork();
	if (pid == 0) {
		peek(dontfork);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	tap_ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
	       "a child touching the DONTFORK range gets SIGSEGV (%s)",
	       status_str(status));
	test_errors();
	tap_done();
}
