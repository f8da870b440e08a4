/* user/tests/poll.c — poll(2) on pipes, sockets and files: POLLIN,
 * POLLOUT, POLLHUP, POLLERR, POLLNVAL, timeouts, a wake-up from another
 * process, EINTR, and its errnos. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ulib.h"

static void on_usr1(int sig)
{
	(void)sig;
}

static long ms_since(const struct timespec *a)
{
	struct timespec b;

	clock_gettime(CLOCK_MONOTONIC, &b);
	return (b.tv_sec - a->tv_sec) * 1000 +
	       (b.tv_nsec - a->tv_nsec) / 1000000;
}

/* poll of one fd for events with timeout ms: its revents, or -1. */
static int poll1(int fd, short events, int ms)
{
	struct pollfd p = { fd, events, 0 };

	return poll(&p, 1, ms) < 0 ? -1 : p.revents;
}

static void pipes(void)
{
	struct timespec t0;
	int p[2], r;
	pid_t pid;

	pipe(p);
	tap_ok(poll1(p[0], POLLIN, 0) == 0, "an empty pipe: not readable");
	tap_ok(poll1(p[1], POLLOUT, 0) == POLLOUT, "its write end: writable");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = poll1(p[0], POLLIN, 100);
	tap_ok(r == 0 && ms_since(&t0) >= 90,
	       "a 100 ms timeout passes (%ld ms)", ms_since(&t0));
	write(p[1], "x", 1);
	tap_ok(poll1(p[0], POLLIN | POLLOUT, 0) == POLLIN,
	       "with data: POLLIN (and no POLLOUT on a read end)");
	close(p[1]);
	tap_ok(poll1(p[0], POLLIN, 0) == (POLLIN | POLLHUP),
	       "the writer gone: POLLIN|POLLHUP");
	close(p[0]);

	pipe(p);
	close(p[0]);
	tap_ok(poll1(p[1], POLLOUT, 0) & POLLERR,
	       "a write end without readers: POLLERR");
	close(p[1]);

	pipe(p);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid == 0) {
		usleep(100000);
		write(p[1], "y", 1);
		_exit(0);
	}
	r = poll1(p[0], POLLIN, -1);
	tap_ok(r == POLLIN && ms_since(&t0) >= 50,
	       "poll(-1) sleeps until another process writes (%ld ms)",
	       ms_since(&t0));
	waitpid(pid, NULL, 0);
	close(p[0]);
	close(p[1]);
}

static void sockets(void)
{
	int sv[2];

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	tap_ok(poll1(sv[0], POLLIN | POLLOUT, 0) == POLLOUT,
	       "a socket: writable, not readable");
	write(sv[1], "z", 1);
	tap_ok(poll1(sv[0], POLLIN, 0) == POLLIN, "after a send: POLLIN");
	close(sv[1]);
	tap_ok((poll1(sv[0], POLLIN | POLLRDHUP, 0) &
		(POLLIN | POLLRDHUP | POLLHUP)) ==
	       (POLLIN | POLLRDHUP | POLLHUP),
	       "its peer closed: POLLIN|POLLRDHUP|POLLHUP");
	close(sv[0]);
}

static void others(void)
{
	struct pollfd ps[3] = { { -1, POLLIN, 7 }, { 99, POLLIN, 0 },
				{ 0, 0, 0 } };
	struct sigaction sa = { .sa_handler = on_usr1 };
	int fd = open("/proc/self/status", O_RDONLY), p[2], n;
	pid_t pid, self = getpid();

	ps[2].fd = fd;
	ps[2].events = POLLIN | POLLOUT;
	n = poll(ps, 3, 0);
	tap_ok(n == 2 && ps[0].revents == 0 && ps[1].revents == POLLNVAL &&
	       ps[2].revents == (POLLIN | POLLOUT),
	       "fd -1 skipped, a closed fd POLLNVAL, a file both ways (%d)",
	       n);
	close(fd);
	errno = 0;
	tap_fails(poll(ps, 0x7fffffff, 0), EINVAL, "more fds than allowed");
	tap_fails(poll((struct pollfd *)8, 1, 0), EFAULT, "a bad pointer");

	sigaction(SIGUSR1, &sa, NULL);
	pipe(p);
	pid = fork();
	if (pid == 0) {
		usleep(100000);
		kill(self, SIGUSR1);
		_exit(0);
	}
	tap_fails(poll1(p[0], POLLIN, 5000), EINTR, "a signal ends the wait");
	waitpid(pid, NULL, 0);
	close(p[0]);
	close(p[1]);
}

int main(void)
{
	tap_plan(14);
	pipes();
	sockets();
	others();
	tap_done();
}
