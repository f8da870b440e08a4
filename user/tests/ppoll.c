/* user/tests/ppoll.c — poll and ppoll on pipes and files: readiness each
 * way, POLLHUP/POLLERR/POLLNVAL, timeouts, a sleep woken by another
 * process, EINTR, ppoll's signal mask and the time it writes back. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ulib.h"

static volatile sig_atomic_t got_usr1;

static void on_usr1(int sig)
{
	(void)sig;
	got_usr1++;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A child that sleeps ms, then writes a byte to fd or (fd < 0) sends
 * SIGUSR1 to its parent. */
static pid_t later(int fd, int ms)
{
	pid_t pid = fork();

	if (pid == 0) {
		usleep(ms * 1000);
		if (fd >= 0)
			write(fd, "x", 1);
		else
			kill(getppid(), SIGUSR1);
		_exit(0);
	}
	return pid;
}

static void readiness(void)
{
	struct pollfd f[4];
	int p[2], fd;
	long r;

	pipe(p);
	f[0] = (struct pollfd){ .fd = p[0], .events = POLLIN };
	f[1] = (struct pollfd){ .fd = p[1], .events = POLLOUT };
	r = poll(f, 2, 0);
	tap_ok(r == 1 && f[0].revents == 0 && f[1].revents == POLLOUT,
	       "empty pipe: only the write end is ready (%ld, %#x %#x)", r,
	       f[0].revents, f[1].revents);
	write(p[1], "a", 1);
	r = poll(f, 2, 0);
	tap_ok(r == 2 && f[0].revents == POLLIN, "with data the read end is "
	       "POLLIN (%ld, %#x)", r, f[0].revents);
	f[0].events = 0;
	r = poll(f, 1, 0);
	tap_ok(r == 0 && f[0].revents == 0, "events 0 reports nothing");
	close(p[1]);
	f[0].events = POLLIN;
	r = poll(f, 1, 0);
	tap_ok(r == 1 && f[0].revents == (POLLIN | POLLHUP), "writer gone: "
	       "POLLIN|POLLHUP (%#x)", f[0].revents);
	f[0].events = 0;
	r = poll(f, 1, 0);
	tap_ok(r == 1 && f[0].revents == POLLHUP, "POLLHUP comes unasked");
	pipe(p);
	close(p[0]);
	f[1] = (struct pollfd){ .fd = p[1], .events = POLLOUT };
	r = poll(&f[1], 1, 0);
	tap_ok(r == 1 && (f[1].revents & POLLERR), "reader gone: the write "
	       "end has POLLERR (%#x)", f[1].revents);
	close(p[1]);
	fd = open("/tests/ppoll", O_RDONLY);
	f[0] = (struct pollfd){ .fd = fd, .events = POLLIN | POLLOUT };
	f[1] = (struct pollfd){ .fd = -1, .events = POLLIN };
	f[2] = (struct pollfd){ .fd = 60, .events = POLLIN };
	if (fd < 0)	/* on the host: the binary is not in /tests */
		f[0].fd = open("/proc/self/exe", O_RDONLY);
	r = poll(f, 3, 0);
	tap_ok(r == 2 && f[0].revents == (POLLIN | POLLOUT) &&
	       f[1].revents == 0 && f[2].revents == POLLNVAL,
	       "a file is always ready, fd -1 is skipped, a closed fd is "
	       "POLLNVAL (%ld: %#x %#x %#x)", r, f[0].revents, f[1].revents,
	       f[2].revents);
	close(f[0].fd);
	errno = 0;
	r = poll(f, 1U << 30, 0);
	tap_ok(r == -1 && errno == EINVAL, "more fds than RLIMIT_NOFILE: "
	       "EINVAL (%s)", strerror(errno));
	errno = 0;
	r = poll((struct pollfd *)8, 1, 0);
	tap_ok(r == -1 && errno == EFAULT, "a bad array: EFAULT");
}

static void sleeping(void)
{
	struct pollfd f;
	long t, r;
	int p[2], st;
	pid_t pid;

	pipe(p);
	f = (struct pollfd){ .fd = p[0], .events = POLLIN };
	t = now_ms();
	r = poll(&f, 1, 100);
	t = now_ms() - t;
	tap_ok(r == 0 && t >= 90, "poll of an empty pipe times out after "
	       "100 ms (%ld, %ld ms)", r, t);
	pid = later(p[1], 50);
	r = poll(&f, 1, -1);
	tap_ok(r == 1 && f.revents == POLLIN, "a write by another process "
	       "wakes poll(-1) (%ld, %#x)", r, f.revents);
	waitpid(pid, &st, 0);
	read(p[0], &st, 1);
	signal(SIGUSR1, on_usr1);
	got_usr1 = 0;
	pid = later(-1, 50);
	errno = 0;
	r = poll(&f, 1, -1);
	tap_ok(r == -1 && errno == EINTR && got_usr1 == 1, "a handled signal "
	       "ends poll with EINTR (%s)", strerror(errno));
	waitpid(pid, &st, 0);
	close(p[0]);
	close(p[1]);
}

static void with_mask(void)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };
	sigset_t block, open_mask, cur;
	struct pollfd f;
	int p[2], st;
	long r;
	pid_t pid;

	pipe(p);
	f = (struct pollfd){ .fd = p[0], .events = POLLIN };
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, NULL);
	sigemptyset(&open_mask);
	got_usr1 = 0;
	pid = later(-1, 50);
	errno = 0;
	r = ppoll(&f, 1, NULL, &open_mask);
	sigprocmask(SIG_BLOCK, NULL, &cur);
	tap_ok(r == -1 && errno == EINTR && got_usr1 == 1 &&
	       sigismember(&cur, SIGUSR1), "ppoll's mask lets a blocked "
	       "signal in, its handler runs, the old mask comes back");
	waitpid(pid, &st, 0);
	r = syscall(SYS_ppoll, &f, 1, &ts, NULL, 8);
	tap_ok(r == 0 && ts.tv_sec == 0 && ts.tv_nsec < 20 * 1000 * 1000,
	       "ppoll times out and writes back the time left (%ld ns)",
	       (long)ts.tv_nsec);
	errno = 0;
	r = syscall(SYS_ppoll, &f, 1, &ts, &open_mask, 4);
	tap_ok(r == -1 && errno == EINVAL, "ppoll with a sigsetsize of 4: "
	       "EINVAL");
	ts.tv_nsec = -1;
	errno = 0;
	r = syscall(SYS_ppoll, &f, 1, &ts, NULL, 8);
	tap_ok(r == -1 && errno == EINVAL, "ppoll with tv_nsec -1: EINVAL");
	sigprocmask(SIG_UNBLOCK, &block, NULL);
	close(p[0]);
	close(p[1]);
}

struct poller {
	int fd;
	short revents;
	long r;
};

static void *poll_forever(void *arg)
{
	struct poller *pl = arg;
	struct pollfd f = { .fd = pl->fd, .events = POLLIN };

	pl->r = poll(&f, 1, 5000);
	pl->revents = f.revents;
	return NULL;
}

/* Another thread closes both ends while poll sleeps on the read end: the
 * writer's close wakes it, and the fd is gone (the pipe itself lives on
 * until poll lets go of it). */
static void closed_while_polled(void)
{
	struct poller pl;
	pthread_t th;
	int p[2];

	pipe(p);
	pl = (struct poller){ p[0], 0, -1 };
	pthread_create(&th, NULL, poll_forever, &pl);
	usleep(100 * 1000);
	close(p[0]);
	close(p[1]);
	pthread_join(th, NULL);
	tap_ok(pl.r == 1 && pl.revents == POLLNVAL, "both ends closed while "
	       "polled: the poll wakes, POLLNVAL (%ld, %#x)", pl.r,
	       pl.revents);
}

int main(void)
{
	tap_plan(17);
	readiness();
	sleeping();
	with_mask();
	closed_while_polled();
	tap_done();
}
