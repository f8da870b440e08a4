/* user/tests/timerfd.c — timerfd as Linux's: create's and settime's
 * errnos, one-shot and periodic timers on CLOCK_MONOTONIC and
 * CLOCK_REALTIME, relative and TFD_TIMER_ABSTIME (one in the past counts
 * every interval since), read's u64 count (sleeping until an expiry,
 * EAGAIN, EINTR), gettime, settime's old value and its reset of the
 * count, poll and epoll waking at the expiry. Counts are checked against
 * the clock read around them, so a slow machine cannot fail them. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ulib.h"

#define MS	1000000LL

static void on_usr1(int sig)
{
	(void)sig;
}

static long long now_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static struct timespec ts_of(long long ns)
{
	return (struct timespec){ .tv_sec = ns / 1000000000LL,
				  .tv_nsec = ns % 1000000000LL };
}

static long long ns_of(struct timespec ts)
{
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int set(int fd, int flags, long long value, long long interval,
	       struct itimerspec *old)
{
	struct itimerspec its = { .it_interval = ts_of(interval),
				  .it_value = ts_of(value) };

	return timerfd_settime(fd, flags, &its, old);
}

static long rd(int fd, uint64_t *v)
{
	return read(fd, v, sizeof(*v));
}

static void errors(void)
{
	struct itimerspec its = { .it_value = { 0, 1000000000 } };
	int fd = timerfd_create(CLOCK_MONOTONIC, 0), p[2];
	char path[64], link[64];
	uint64_t v;
	long n;

	tap_fails(timerfd_create(CLOCK_PROCESS_CPUTIME_ID, 0), EINVAL,
		  "a CPU-time clock");
	tap_fails(timerfd_create(CLOCK_MONOTONIC, 1), EINVAL, "flag 1");
	tap_fails(timerfd_settime(fd, 0, &its, NULL), EINVAL,
		  "tv_nsec 1000000000");
	its.it_value.tv_nsec = 0;
	its.it_value.tv_sec = -1;
	tap_fails(timerfd_settime(fd, 0, &its, NULL), EINVAL, "tv_sec -1");
	its.it_value.tv_sec = 1;
	tap_fails(timerfd_settime(fd, 4, &its, NULL), EINVAL, "flag 4");
	pipe(p);
	tap_fails(timerfd_settime(p[0], 0, &its, NULL), EINVAL, "a pipe");
	tap_fails(timerfd_gettime(p[0], &its), EINVAL, "gettime of a pipe");
	tap_fails(timerfd_settime(99, 0, &its, NULL), EBADF, "a closed fd");
	tap_fails(timerfd_settime(fd, 0, (void *)8, NULL), EFAULT,
		  "a bad new value");
	tap_fails(timerfd_gettime(fd, (void *)8), EFAULT, "a bad gettime");
	tap_fails(read(fd, &v, 4), EINVAL, "a 4-byte read");
	tap_fails(write(fd, &v, 8), EINVAL, "write");
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = 0;
	tap_ok(!strcmp(link, "anon_inode:[timerfd]"), "/proc/self/fd/N: %s",
	       link);
	close(fd);
	fd = timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK);
	tap_ok(fcntl(fd, F_GETFD) == FD_CLOEXEC &&
	       (fcntl(fd, F_GETFL) & (O_ACCMODE | O_NONBLOCK)) ==
	       (O_RDWR | O_NONBLOCK), "TFD_CLOEXEC, TFD_NONBLOCK, O_RDWR");
	close(fd);
	close(p[0]);
	close(p[1]);
}

static void oneshot(void)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, 0);
	struct itimerspec its;
	long long t0, t;
	uint64_t v = 0;
	long r;

	tap_ok(timerfd_gettime(fd, &its) == 0 && !ns_of(its.it_value) &&
	       !ns_of(its.it_interval), "a new timer is disarmed");
	t0 = now_ns(CLOCK_MONOTONIC);
	set(fd, 0, 100 * MS, 0, NULL);
	timerfd_gettime(fd, &its);
	tap_ok(ns_of(its.it_value) > 0 && ns_of(its.it_value) <= 100 * MS,
	       "gettime: what is left (%lld ns)", ns_of(its.it_value));
	r = rd(fd, &v);
	t = now_ns(CLOCK_MONOTONIC) - t0;
	tap_ok(r == 8 && v == 1 && t >= 100 * MS, "read sleeps until the "
	       "expiry: 1 (%ld, %llu, %lld ms)", r, (unsigned long long)v,
	       t / MS);
	timerfd_gettime(fd, &its);
	tap_ok(!ns_of(its.it_value), "then it is disarmed");
	fcntl(fd, F_SETFL, O_NONBLOCK);
	tap_fails(rd(fd, &v), EAGAIN, "O_NONBLOCK's read with no expiry");
	set(fd, 0, 1000 * MS, 0, NULL);
	set(fd, 0, 0, 0, &its);
	tap_ok(ns_of(its.it_value) > 900 * MS && ns_of(its.it_value) <=
	       1000 * MS, "settime gives the old value (%lld ms)",
	       ns_of(its.it_value) / MS);
	timerfd_gettime(fd, &its);
	tap_ok(!ns_of(its.it_value), "a value of 0 disarms it");
	set(fd, 0, 1, 0, NULL);
	usleep(20000);
	set(fd, 0, 1000 * MS, 0, NULL);
	tap_fails(rd(fd, &v), EAGAIN, "settime drops an expiry not read");
	close(fd);
}

/* A periodic timer's count is the intervals between its start and the
 * read: between what the clock said around each. */
static void periodic(void)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, 0);
	long long t0, t1, t2, t3, lo, hi;
	struct itimerspec its;
	uint64_t v = 0;

	t0 = now_ns(CLOCK_MONOTONIC);
	set(fd, 0, 50 * MS, 50 * MS, NULL);
	t1 = now_ns(CLOCK_MONOTONIC);
	usleep(275000);
	t2 = now_ns(CLOCK_MONOTONIC);
	rd(fd, &v);
	t3 = now_ns(CLOCK_MONOTONIC);
	lo = (t2 - t1) / (50 * MS);
	hi = (t3 - t0) / (50 * MS);
	tap_ok((long long)v >= lo && (long long)v <= hi && v >= 5,
	       "every 50 ms for 275 ms: %llu expirations (%lld..%lld)",
	       (unsigned long long)v, lo, hi);
	timerfd_gettime(fd, &its);
	tap_ok(ns_of(its.it_interval) == 50 * MS && ns_of(its.it_value) > 0 &&
	       ns_of(its.it_value) <= 50 * MS, "gettime: the interval, and "
	       "the time to the next (%lld ms)", ns_of(its.it_value) / MS);
	t0 = now_ns(CLOCK_MONOTONIC);
	rd(fd, &v);
	t1 = now_ns(CLOCK_MONOTONIC);
	tap_ok(v >= 1 && t1 - t0 <= 60 * MS, "the next read waits one "
	       "interval at most (%llu, %lld ms)", (unsigned long long)v,
	       (t1 - t0) / MS);
	close(fd);
}

static void absolute(void)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, 0);
	long long t0, t1, t2, lo, hi;
	uint64_t v = 0;

	t0 = now_ns(CLOCK_MONOTONIC);
	set(fd, TFD_TIMER_ABSTIME, t0 + 100 * MS, 0, NULL);
	rd(fd, &v);
	t1 = now_ns(CLOCK_MONOTONIC);
	tap_ok(v == 1 && t1 >= t0 + 100 * MS, "TFD_TIMER_ABSTIME: at that "
	       "time (%lld ms)", (t1 - t0) / MS);
	close(fd);
	/* CLOCK_REALTIME: a machine just booted has no 10.5 s of
	 * monotonic time behind it */
	fd = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK);
	t0 = now_ns(CLOCK_REALTIME);
	set(fd, TFD_TIMER_ABSTIME, t0 - 10500 * MS, 1000 * MS, NULL);
	t1 = now_ns(CLOCK_REALTIME);
	rd(fd, &v);
	t2 = now_ns(CLOCK_REALTIME);
	lo = (t1 - (t0 - 10500 * MS)) / (1000 * MS) + 1;
	hi = (t2 - (t0 - 10500 * MS)) / (1000 * MS) + 1;
	tap_ok((long long)v >= lo && (long long)v <= hi, "a start 10.5 s ago, "
	       "every second: %llu expirations at once (%lld..%lld)",
	       (unsigned long long)v, lo, hi);
	close(fd);
	fd = timerfd_create(CLOCK_REALTIME, 0);
	t0 = now_ns(CLOCK_REALTIME);
	set(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, t0 + 100 * MS, 0,
	    NULL);
	rd(fd, &v);
	t1 = now_ns(CLOCK_REALTIME);
	tap_ok(v == 1 && t1 >= t0 + 100 * MS, "CLOCK_REALTIME, absolute "
	       "(%lld ms)", (t1 - t0) / MS);
	close(fd);
}

static void waiting(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	int fd = timerfd_create(CLOCK_MONOTONIC, 0), ep;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct epoll_event ev = { .events = EPOLLIN };
	long long t0, t;
	uint64_t v;
	pid_t pid;
	int n;

	set(fd, 0, 100 * MS, 0, NULL);
	tap_ok(poll(&p, 1, 0) == 0, "poll before the expiry: nothing");
	t0 = now_ns(CLOCK_MONOTONIC);
	n = poll(&p, 1, 5000);
	t = now_ns(CLOCK_MONOTONIC) - t0;
	tap_ok(n == 1 && p.revents == POLLIN && t >= 90 * MS && t < 4000 * MS,
	       "poll sleeps until it: POLLIN (%lld ms)", t / MS);
	rd(fd, &v);
	ep = epoll_create1(0);
	epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
	set(fd, 0, 100 * MS, 0, NULL);
	t0 = now_ns(CLOCK_MONOTONIC);
	n = epoll_wait(ep, &ev, 1, 5000);
	t = now_ns(CLOCK_MONOTONIC) - t0;
	tap_ok(n == 1 && ev.events == EPOLLIN && t >= 90 * MS &&
	       t < 4000 * MS, "so does epoll_wait (%lld ms)", t / MS);
	close(ep);
	rd(fd, &v);
	sigaction(SIGUSR1, &sa, NULL);
	set(fd, 0, 10000 * MS, 0, NULL);
	pid = fork();
	if (pid == 0) {
		usleep(100000);
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	errno = 0;
	n = rd(fd, &v);
	waitpid(pid, NULL, 0);
	tap_ok(n == -1 && errno == EINTR, "a signal ends read: EINTR (%s)",
	       strerror(errno));
	close(fd);
}

int main(void)
{
	tap_plan(32);
	errors();
	oneshot();
	periodic();
	absolute();
	waiting();
	tap_done();
}
