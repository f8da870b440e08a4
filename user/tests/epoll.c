/* user/tests/epoll.c — epoll as Linux's: epoll_create1 and epoll_ctl's
 * errnos (EEXIST, ENOENT, EINVAL, EPERM, ELOOP, EBADF, EFAULT),
 * level-triggered, EPOLLET and EPOLLONESHOT items over pipes, sockets,
 * an eventfd and a pidfd, sleeps woken by another process or ended by a
 * timeout or a signal (EINTR even with SA_RESTART), epoll_pwait's mask,
 * an item's removal with its file's last close, nested epoll files. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
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

static int add(int ep, int fd, unsigned int events, uint64_t data)
{
	struct epoll_event ev = { .events = events, .data.u64 = data };

	return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
}

static int mod(int ep, int fd, unsigned int events, uint64_t data)
{
	struct epoll_event ev = { .events = events, .data.u64 = data };

	return epoll_ctl(ep, EPOLL_CTL_MOD, fd, &ev);
}

/* epoll_wait with timeout ms; the first event into *ev. */
static int wait1(int ep, struct epoll_event *ev, int ms)
{
	return epoll_wait(ep, ev, 1, ms);
}

/* A child that writes a byte to fd (or signals us, fd < 0) after ms. */
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

static void create(void)
{
	char path[64], link[64];
	int ep;
	long n;

	tap_fails(syscall(SYS_epoll_create, 0), EINVAL, "epoll_create(0)");
	tap_fails(epoll_create1(1), EINVAL, "epoll_create1 with flag 1");
	ep = epoll_create1(EPOLL_CLOEXEC);
	tap_ok(ep >= 0 && fcntl(ep, F_GETFD) == FD_CLOEXEC &&
	       (fcntl(ep, F_GETFL) & O_ACCMODE) == O_RDWR,
	       "EPOLL_CLOEXEC; O_RDWR");
	snprintf(path, sizeof(path), "/proc/self/fd/%d", ep);
	n = readlink(path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = 0;
	tap_ok(!strcmp(link, "anon_inode:[eventpoll]"), "/proc/self/fd/N: %s",
	       link);
	close(ep);
	ep = (int)syscall(SYS_epoll_create, 10);
	tap_ok(ep >= 0 && fcntl(ep, F_GETFD) == 0, "epoll_create(10)");
	close(ep);
}

static void ctl_errors(void)
{
	int ep = epoll_create1(0), ep2 = epoll_create1(0), p[2], file;
	struct epoll_event ev = { .events = EPOLLIN };

	pipe(p);
	file = open("/tmp", O_RDONLY);	/* a directory: no poll either */
	tap_ok(add(ep, p[0], EPOLLIN, 1) == 0, "EPOLL_CTL_ADD a pipe");
	tap_fails(add(ep, p[0], EPOLLIN, 1), EEXIST, "adding it again");
	tap_fails(mod(ep, p[1], EPOLLOUT, 1), ENOENT, "MOD of one not added");
	tap_fails(epoll_ctl(ep, EPOLL_CTL_DEL, p[1], NULL), ENOENT,
		  "DEL of one not added");
	tap_fails(add(ep, ep, EPOLLIN, 0), EINVAL, "an epoll file in itself");
	tap_fails(add(p[0], p[1], EPOLLIN, 0), EINVAL, "epfd not an epoll file");
	tap_fails(add(ep, file, EPOLLIN, 0), EPERM, "a file without poll");
	tap_fails(add(ep, 99, EPOLLIN, 0), EBADF, "a closed fd");
	tap_fails(add(99, p[0], EPOLLIN, 0), EBADF, "a closed epfd");
	tap_fails(epoll_ctl(ep, 7, p[1], &ev), EINVAL, "op 7");
	tap_fails(epoll_ctl(ep, EPOLL_CTL_ADD, p[1], (void *)8), EFAULT,
		  "a bad event pointer");
	tap_fails(mod(ep, p[0], EPOLLIN | EPOLLEXCLUSIVE, 0), EINVAL,
		  "EPOLLEXCLUSIVE in MOD");
	tap_fails(add(ep2, ep, EPOLLIN | EPOLLEXCLUSIVE, 0), EINVAL,
		  "EPOLLEXCLUSIVE on an epoll file");
	tap_ok(add(ep2, ep, EPOLLIN, 0) == 0, "an epoll file in another");
	tap_fails(add(ep, ep2, EPOLLIN, 0), ELOOP, "the other way round: a "
		  "cycle");
	tap_ok(epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL) == 0, "DEL");
	tap_fails(epoll_wait(ep, &ev, 0, 0), EINVAL, "epoll_wait maxevents 0");
	tap_fails(epoll_wait(p[0], &ev, 1, 0), EINVAL, "epoll_wait on a pipe");
	tap_fails(epoll_wait(99, &ev, 1, 0), EBADF, "epoll_wait on a closed fd");
	close(ep);
	close(ep2);
	close(p[0]);
	close(p[1]);
	close(file);
}

static void triggers(void)
{
	int ep = epoll_create1(0), p[2], n;
	struct epoll_event ev = { 0 };
	char c;

	pipe(p);
	add(ep, p[0], EPOLLIN, 7);
	tap_ok(wait1(ep, &ev, 0) == 0, "an empty pipe: no event");
	write(p[1], "ab", 2);
	n = wait1(ep, &ev, 0);
	tap_ok(n == 1 && ev.events == EPOLLIN && ev.data.u64 == 7,
	       "level-triggered: EPOLLIN with its data (%d, %#x, %llu)", n,
	       ev.events, (unsigned long long)ev.data.u64);
	tap_ok(wait1(ep, &ev, 0) == 1, "and again while data is there");
	read(p[0], &c, 1);
	read(p[0], &c, 1);
	tap_ok(wait1(ep, &ev, 0) == 0, "none once it is read");

	mod(ep, p[0], EPOLLIN | EPOLLET, 8);
	write(p[1], "a", 1);
	tap_ok(wait1(ep, &ev, 0) == 1 && ev.data.u64 == 8, "EPOLLET: the write "
	       "is reported");
	tap_ok(wait1(ep, &ev, 0) == 0, "once only, though data is there");
	write(p[1], "b", 1);
	tap_ok(wait1(ep, &ev, 0) == 1, "a new write: reported again");
	read(p[0], &c, 1);
	read(p[0], &c, 1);

	mod(ep, p[0], EPOLLIN | EPOLLONESHOT, 9);
	write(p[1], "a", 1);
	tap_ok(wait1(ep, &ev, 0) == 1 && ev.data.u64 == 9, "EPOLLONESHOT: "
	       "reported");
	write(p[1], "b", 1);
	tap_ok(wait1(ep, &ev, 0) == 0, "then disabled, writes or not");
	mod(ep, p[0], EPOLLIN | EPOLLONESHOT, 10);
	tap_ok(wait1(ep, &ev, 0) == 1 && ev.data.u64 == 10, "MOD re-arms it");
	read(p[0], &c, 1);
	read(p[0], &c, 1);

	add(ep, p[1], EPOLLOUT, 11);
	mod(ep, p[0], EPOLLIN, 12);
	n = wait1(ep, &ev, 0);
	tap_ok(n == 1 && ev.events == EPOLLOUT && ev.data.u64 == 11,
	       "the write end is EPOLLOUT (%#x)", ev.events);
	write(p[1], "z", 1);
	{
		struct epoll_event evs[4] = { 0 };
		int a, b;

		a = epoll_wait(ep, evs, 1, 0);
		b = epoll_wait(ep, evs + 1, 1, 0);
		tap_ok(a == 1 && b == 1 && evs[0].data.u64 != evs[1].data.u64,
		       "maxevents 1 with two ready: each call gets the next "
		       "(%llu, %llu)", (unsigned long long)evs[0].data.u64,
		       (unsigned long long)evs[1].data.u64);
		n = epoll_wait(ep, evs, 4, 0);
		tap_ok(n == 2, "maxevents 4: both (%d)", n);
	}
	epoll_ctl(ep, EPOLL_CTL_DEL, p[1], NULL);
	close(p[1]);
	n = wait1(ep, &ev, 0);
	tap_ok(n == 1 && ev.events == (EPOLLIN | EPOLLHUP), "writer gone: "
	       "EPOLLIN|EPOLLHUP, asked or not (%#x)", ev.events);
	close(p[0]);
	close(ep);
}

static void sleeps(void)
{
	struct sigaction sa = { .sa_handler = on_usr1,
				.sa_flags = SA_RESTART };
	int ep = epoll_create1(0), p[2], n;
	struct epoll_event ev;
	sigset_t block, old;
	pid_t pid;
	long t;

	sigaction(SIGUSR1, &sa, NULL);
	pipe(p);
	add(ep, p[0], EPOLLIN, 1);
	pid = later(p[1], 100);
	t = now_ms();
	n = wait1(ep, &ev, -1);
	t = now_ms() - t;
	waitpid(pid, NULL, 0);
	tap_ok(n == 1 && t >= 50, "epoll_wait(-1) sleeps until another process "
	       "writes (%d, %ld ms)", n, t);
	read(p[0], &ev, 1);
	t = now_ms();
	n = wait1(ep, &ev, 150);
	t = now_ms() - t;
	tap_ok(n == 0 && t >= 140, "a timeout of 150 ms (%d, %ld ms)", n, t);
	pid = later(-1, 100);
	errno = 0;
	n = wait1(ep, &ev, 5000);
	waitpid(pid, NULL, 0);
	tap_ok(n == -1 && errno == EINTR && got_usr1 == 1, "a handled signal: "
	       "EINTR even with SA_RESTART (%d, %s)", n, strerror(errno));
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, &old);
	pid = later(-1, 100);
	errno = 0;
	n = epoll_pwait(ep, &ev, 1, 5000, &old);
	waitpid(pid, NULL, 0);
	tap_ok(n == -1 && errno == EINTR && got_usr1 == 2, "epoll_pwait's mask "
	       "lets SIGUSR1 in while it waits (%d, %s, %d)", n,
	       strerror(errno), (int)got_usr1);
	pid = later(-1, 50);
	n = epoll_pwait(ep, &ev, 1, 300, &block);
	waitpid(pid, NULL, 0);
	tap_ok(n == 0 && got_usr1 == 2, "... or keeps it out (%d, %d)", n,
	       (int)got_usr1);
	sigprocmask(SIG_SETMASK, &old, NULL);
	tap_ok(got_usr1 == 3, "the signal kept out runs after (%d)",
	       (int)got_usr1);
	close(p[0]);
	close(p[1]);
	close(ep);
}

static void others(void)
{
	int ep = epoll_create1(0), ep2 = epoll_create1(0), p[2], s[2], efd, pfd;
	struct epoll_event ev = { 0 };
	struct pollfd pf;
	uint64_t one = 1;
	pid_t pid;
	int n, d;

	pipe(p);
	add(ep, p[0], EPOLLIN, 1);
	d = dup(p[0]);
	close(p[0]);
	write(p[1], "a", 1);
	tap_ok(wait1(ep, &ev, 0) == 1 && ev.data.u64 == 1, "closing one fd of "
	       "a file leaves its item while a dup holds the file");
	close(d);
	tap_ok(wait1(ep, &ev, 0) == 0, "its last close removes it");
	tap_fails(epoll_ctl(ep, EPOLL_CTL_DEL, d, NULL), EBADF,
		  "... and DEL of the closed fd");
	close(p[1]);

	socketpair(AF_UNIX, SOCK_STREAM, 0, s);
	add(ep, s[0], EPOLLIN | EPOLLRDHUP, 2);
	write(s[1], "x", 1);
	n = wait1(ep, &ev, 0);
	tap_ok(n == 1 && ev.events == EPOLLIN && ev.data.u64 == 2,
	       "a socket with data: EPOLLIN (%#x)", ev.events);
	close(s[1]);
	n = wait1(ep, &ev, 0);
	tap_ok(n == 1 && (ev.events & (EPOLLRDHUP | EPOLLHUP)) ==
	       (EPOLLRDHUP | EPOLLHUP), "its peer closed: EPOLLRDHUP|EPOLLHUP "
	       "(%#x)", ev.events);
	close(s[0]);

	efd = eventfd(0, EFD_NONBLOCK);
	add(ep, efd, EPOLLIN | EPOLLET, 3);
	write(efd, &one, sizeof(one));
	tap_ok(wait1(ep, &ev, 0) == 1 && ev.data.u64 == 3, "an eventfd");
	add(ep2, ep, EPOLLIN, 4);
	write(efd, &one, sizeof(one));
	n = wait1(ep2, &ev, 0);
	tap_ok(n == 1 && ev.events == EPOLLIN && ev.data.u64 == 4,
	       "an epoll file in another reports EPOLLIN (%d, %#x)", n,
	       ev.events);
	pf = (struct pollfd){ .fd = ep, .events = POLLIN };
	tap_ok(poll(&pf, 1, 0) == 1 && pf.revents == POLLIN,
	       "poll() of the epoll file: POLLIN");
	tap_ok(wait1(ep, &ev, 0) == 1 && ev.data.u64 == 3, "the inner one "
	       "still has the eventfd's event");
	tap_ok(poll(&pf, 1, 0) == 0, "then poll() finds nothing");
	close(efd);

	pid = fork();
	if (pid == 0) {
		usleep(100000);
		_exit(0);
	}
	pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	add(ep, pfd, EPOLLIN, 5);
	tap_ok(wait1(ep, &ev, 0) == 0, "a live child's pidfd: nothing");
	n = wait1(ep, &ev, 5000);
	tap_ok(n == 1 && ev.data.u64 == 5, "its exit wakes epoll_wait (%d)", n);
	waitpid(pid, NULL, 0);
	close(pfd);
	close(ep2);
	close(ep);
}

int main(void)
{
	tap_plan(56);
	create();
	ctl_errors();
	triggers();
	sleeps();
	others();
	tap_done();
}
