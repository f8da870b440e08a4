/* user/tests/vmsplice_cow.c — vmsplice puts pages into a pipe by
 * reference, and COW must not leak through that reference (the
 * CVE-2020-29374 class; Linux's tools/testing/selftests/mm/cow.c cases
 * "vmsplice() + unmap in child", "... with mprotect() optimization",
 * "vmsplice() before fork(), unmap in parent after fork()" and
 * "vmsplice() + unmap in parent after fork()"), on written pages and on
 * pages only read (zero pages unless zero_page=off). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define SIZE	(4 * PAGE_SIZE)

static char old[SIZE], got[SIZE];
static int ready[2], go[2];	/* child -> parent, parent -> child */

static void signal_fd(int fd)
{
	if (write(fd, "0", 1) != 1)
		_exit(3);
}

static void wait_fd(int fd)
{
	char c;

	while (read(fd, &c, 1) != 1)
		;
}

/* Reads n bytes back from the pipe into got; 1 if they equal old. */
static int pipe_still_old(int fd, ssize_t n)
{
	ssize_t total, cur;

	for (total = 0; total < n; total += cur) {
		cur = read(fd, got + total, n - total);
		if (cur <= 0)
			return 0;
	}
	return memcmp(old, got, n) == 0;
}

/* A fresh mapping, written (a page of its own) or only read. */
static char *fresh(int written)
{
	char *mem = mmap(NULL, SIZE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	volatile char sink;

	if (mem == MAP_FAILED)
		exit(2);
	for (int i = 0; i < SIZE; i += PAGE_SIZE) {
		if (written)
			mem[i] = (char)(i / PAGE_SIZE + 1);
		else
			sink = mem[i];
	}
	(void)sink;
	memcpy(old, mem, SIZE);
	return mem;
}

/*
 * The child vmsplices and unmaps; then the parent writes (after an
 * mprotect round trip if asked, which must not make the shared PTE
 * writable in place). The child must read the old data from the pipe.
 */
static int splice_in_child(int written, int do_mprotect)
{
	struct iovec iov;
	char *mem = fresh(written);
	int fds[2], st;
	pid_t pid;

	iov.iov_base = mem;
	iov.iov_len = SIZE;
	pid = fork();
	if (pid == 0) {
		ssize_t n;

		if (pipe(fds) < 0)
			_exit(2);
		n = vmsplice(fds[1], &iov, 1, 0);
		if (n != SIZE || munmap(mem, SIZE) < 0)
			_exit(2);
		signal_fd(ready[1]);
		wait_fd(go[0]);
		_exit(pipe_still_old(fds[0], n) ? 0 : 1);
	}
	wait_fd(ready[0]);
	if (do_mprotect && (mprotect(mem, SIZE, PROT_READ) ||
			    mprotect(mem, SIZE, PROT_READ | PROT_WRITE)))
		return -1;
	memset(mem, 0xff, SIZE);
	signal_fd(go[1]);
	waitpid(pid, &st, 0);
	munmap(mem, SIZE);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The parent vmsplices (before or after the fork) and unmaps; then the
 * child writes. The parent must read the old data from the pipe. */
static int splice_in_parent(int written, int before_fork)
{
	struct iovec iov;
	char *mem = fresh(written);
	ssize_t n = 0;
	int fds[2], st;
	pid_t pid;

	iov.iov_base = mem;
	iov.iov_len = SIZE;
	if (pipe(fds) < 0)
		return -1;
	if (before_fork)
		n = vmsplice(fds[1], &iov, 1, 0);
	pid = fork();
	if (pid == 0) {
		wait_fd(go[0]);
		memset(mem, 0xff, SIZE);
		_exit(0);
	}
	if (!before_fork)
		n = vmsplice(fds[1], &iov, 1, 0);
	if (n != SIZE || munmap(mem, SIZE) < 0)
		return -1;
	signal_fd(go[1]);
	waitpid(pid, &st, 0);
	st = pipe_still_old(fds[0], n) ? 0 : 1;
	close(fds[0]);
	close(fds[1]);
	return st;
}

/* No fork: the pipe holds the page itself, so a write before the read
 * shows (the page is the writer's alone: no fault, no copy). */
static int by_reference(void)
{
	char *mem = fresh(1);
	struct iovec iov = { mem, SIZE };
	int fds[2], ok;

	if (pipe(fds) < 0 || vmsplice(fds[1], &iov, 1, 0) != SIZE)
		return 0;
	mem[PAGE_SIZE + 7] = 0x42;
	old[PAGE_SIZE + 7] = 0x42;
	ok = pipe_still_old(fds[0], SIZE);
	close(fds[0]);
	close(fds[1]);
	munmap(mem, SIZE);
	return ok;
}

static void errnos(void)
{
	struct iovec iov = { old, 16 };
	int fds[2], fd = open("/dev/null", O_WRONLY);

	pipe(fds);
	tap_ok(vmsplice(fds[1], &iov, 1, 0x10) < 0 && errno == EINVAL,
	       "vmsplice with an unknown flag: EINVAL");
	tap_ok(vmsplice(fd, &iov, 1, 0) < 0 && errno == EBADF,
	       "vmsplice to a file that is not a pipe: EBADF");
	iov.iov_base = (void *)16;
	tap_ok(vmsplice(fds[1], &iov, 1, 0) < 0 && errno == EFAULT,
	       "vmsplice of an unmapped address: EFAULT");
	write(fds[1], "hello", 5);
	iov.iov_base = got;
	iov.iov_len = sizeof(got);
	tap_ok(vmsplice(fds[0], &iov, 1, 0) == 5 && !memcmp(got, "hello", 5),
	       "vmsplice from the read end copies out, as readv");
	close(fds[0]);
	close(fds[1]);
	close(fd);
}

int main(void)
{
	static const char *what[2] = { "read-only (zero) pages",
				       "written pages" };

	tap_plan(4 + 1 + 2 * 4);
	if (pipe(ready) < 0 || pipe(go) < 0)
		return 1;
	errnos();
	tap_ok(by_reference(), "the pipe holds the page itself: a write by "
	       "its sole owner before the read shows");
	for (int w = 1; w >= 0; w--) {
		tap_ok(splice_in_child(w, 0) == 0, "%s: vmsplice + unmap in child: "
		       "no leak from parent into child", what[w]);
		tap_ok(splice_in_child(w, 1) == 0, "%s: ... with an mprotect round "
		       "trip: no leak", what[w]);
		tap_ok(splice_in_parent(w, 1) == 0, "%s: vmsplice before fork, unmap "
		       "in parent: no leak from child into parent", what[w]);
		tap_ok(splice_in_parent(w, 0) == 0, "%s: vmsplice + unmap in parent "
		       "after fork: no leak from child into parent", what[w]);
	}
	tap_done();
}
