/* user/tests/eventfd.c — eventfd2 as Linux's: the counter read whole or
 * (EFD_SEMAPHORE) one at a time, the flags, the errnos for short buffers
 * and ULLONG_MAX, poll's events, a read that sleeps until a write or a
 * signal, a write that waits for room. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

static long rd(int fd, uint64_t *v)
{
	return read(fd, v, sizeof(*v));
}

static long wr(int fd, uint64_t v)
{
	return write(fd, &v, sizeof(v));
}

static short revents(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLOUT };

	return poll(&p, 1, 0) < 0 ? -1 : p.revents;
}

static void on_usr1(int sig)
{
	(void)sig;
}

static void counter(void)
{
	int fd = eventfd(5, EFD_NONBLOCK);
	uint64_t v = 0;
	char link[64], path[64];
	long n;

	tap_ok(rd(fd, &v) == 8 && v == 5, "read gives the initial count (%llu)",
	       (unsigned long long)v);
	tap_fails(rd(fd, &v), EAGAIN, "then 0: EFD_NONBLOCK's read");
	tap_ok(wr(fd, 3) == 8 && wr(fd, 4) == 8 && rd(fd, &v) == 8 && v == 7,
	       "writes add up: 3 + 4 read as %llu", (unsigned long long)v);
	tap_ok(revents(fd) == POLLOUT, "empty: POLLOUT only (%#x)",
	       revents(fd));
	wr(fd, 1);
	tap_ok(revents(fd) == (POLLIN | POLLOUT), "with a count: POLLIN|POLLOUT "
	       "(%#x)", revents(fd));
	tap_fails(read(fd, &v, 4), EINVAL, "a 4-byte read");
	tap_fails(write(fd, &v, 7), EINVAL, "a 7-byte write");
	tap_fails(wr(fd, UINT64_MAX), EINVAL, "writing ULLONG_MAX");
	rd(fd, &v);
	tap_ok(wr(fd, UINT64_MAX - 1) == 8, "ULLONG_MAX - 1 fits");
	tap_fails(wr(fd, 1), EAGAIN, "one more does not (EFD_NONBLOCK)");
	tap_ok(revents(fd) == POLLIN, "full: POLLIN only (%#x)", revents(fd));
	tap_ok(wr(fd, 0) == 8, "adding 0 always fits");
	tap_ok((fcntl(fd, F_GETFL) & (O_ACCMODE | O_NONBLOCK)) ==
	       (O_RDWR | O_NONBLOCK) && fcntl(fd, F_GETFD) == 0,
	       "O_RDWR|O_NONBLOCK, not close-on-exec");
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = 0;
	tap_ok(!strcmp(link, "anon_inode:[eventfd]"), "/proc/self/fd/N: %s",
	       link);
	close(fd);
	fd = eventfd(0, EFD_CLOEXEC);
	tap_ok(fcntl(fd, F_GETFD) == FD_CLOEXEC &&
	       !(fcntl(fd, F_GETFL) & O_NONBLOCK), "EFD_CLOEXEC");
	close(fd);
	tap_fails(eventfd(0, 0x10), EINVAL, "unknown flags");
}

static void semaphore(void)
{
	int fd = eventfd(3, EFD_SEMAPHORE | EFD_NONBLOCK);
	uint64_t a = 0, b = 0, c = 0, d;

	tap_ok(rd(fd, &a) == 8 && rd(fd, &b) == 8 && rd(fd, &c) == 8 &&
	       a == 1 && b == 1 && c == 1, "EFD_SEMAPHORE: each read gives 1");
	tap_fails(rd(fd, &d), EAGAIN, "three reads took the 3");
	close(fd);
}

static void sleeping(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	int fd = eventfd(0, 0), st;
	uint64_t v = 0;
	pid_t pid;
	long r;

	sigaction(SIGUSR1, &sa, NULL);
	pid = fork();
	if (pid == 0) {
		usleep(100000);
		wr(fd, 42);
		_exit(0);
	}
	r = rd(fd, &v);
	waitpid(pid, &st, 0);
	tap_ok(r == 8 && v == 42, "a read sleeps until a write (%ld, %llu)", r,
	       (unsigned long long)v);
	pid = fork();
	if (pid == 0) {
		usleep(100000);
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	errno = 0;
	r = rd(fd, &v);
	waitpid(pid, &st, 0);
	tap_ok(r == -1 && errno == EINTR, "a signal ends it: EINTR (%s)",
	       strerror(errno));
	wr(fd, UINT64_MAX - 1);
	pid = fork();
	if (pid == 0) {
		usleep(100000);
		rd(fd, &v);
		_exit(0);
	}
	r = wr(fd, 5);
	waitpid(pid, &st, 0);
	tap_ok(r == 8 && rd(fd, &v) == 8 && v == 5, "a write waits for a read "
	       "to make room (%ld, %llu)", r, (unsigned long long)v);
	close(fd);
}

int main(void)
{
	tap_plan(21);
	counter();
	semaphore();
	sleeping();
	tap_done();
}
