/* user/tests/signalfd.c — signalfd4 as Linux's: blocked signals read as
 * 128-byte signalfd_siginfo records (signo, code, pid, uid; SIGCHLD's
 * status), several per read, only those of the mask, which a second
 * call changes; EAGAIN, a read that sleeps until a signal or ends with
 * EINTR, poll and epoll, the errnos, and an epoll item whose signalfd
 * was added by a child that has exited since (its sighand freed). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

static void on_usr2(int sig)
{
	(void)sig;
}

static sigset_t set_of(int a, int b)
{
	sigset_t s;

	sigemptyset(&s);
	if (a)
		sigaddset(&s, a);
	if (b)
		sigaddset(&s, b);
	return s;
}

static void records(void)
{
	sigset_t usr1 = set_of(SIGUSR1, 0), both = set_of(SIGUSR1, SIGUSR2);
	struct signalfd_siginfo ss[2];
	char path[64], link[64];
	int fd;
	long n;

	sigprocmask(SIG_BLOCK, &both, NULL);
	fd = signalfd(-1, &usr1, SFD_NONBLOCK | SFD_CLOEXEC);
	tap_ok(fd >= 0 && fcntl(fd, F_GETFD) == FD_CLOEXEC &&
	       (fcntl(fd, F_GETFL) & (O_ACCMODE | O_NONBLOCK)) ==
	       (O_RDWR | O_NONBLOCK), "signalfd: SFD_CLOEXEC, SFD_NONBLOCK");
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = 0;
	tap_ok(!strcmp(link, "anon_inode:[signalfd]"), "/proc/self/fd/N: %s",
	       link);
	tap_fails(read(fd, ss, sizeof(ss)), EAGAIN, "nothing pending");
	kill(getpid(), SIGUSR1);
	n = read(fd, ss, sizeof(ss));
	tap_ok(n == 128 && ss[0].ssi_signo == SIGUSR1 &&
	       ss[0].ssi_code == SI_USER && ss[0].ssi_pid == (unsigned)getpid()
	       && ss[0].ssi_uid == getuid(), "kill: one 128-byte record, "
	       "SIGUSR1, SI_USER, our pid and uid (%ld, %u, %d, %u)", n,
	       ss[0].ssi_signo, ss[0].ssi_code, ss[0].ssi_pid);
	syscall(SYS_tgkill, getpid(), (int)syscall(SYS_gettid), SIGUSR1);
	n = read(fd, ss, sizeof(ss));
	tap_ok(n == 128 && ss[0].ssi_code == SI_TKILL, "tgkill: SI_TKILL "
	       "(%d)", ss[0].ssi_code);
	tap_fails(read(fd, ss, 100), EINVAL, "a buffer under 128 bytes");
	kill(getpid(), SIGUSR2);
	tap_fails(read(fd, ss, sizeof(ss)), EAGAIN, "SIGUSR2 is not its");
	tap_ok(signalfd(fd, &both, 0) == fd, "a second call changes the mask "
	       "and returns the fd");
	kill(getpid(), SIGUSR1);
	n = read(fd, ss, sizeof(ss));
	tap_ok(n == 256 && ss[0].ssi_signo == SIGUSR1 &&
	       ss[1].ssi_signo == SIGUSR2, "both in one read, lowest first "
	       "(%ld)", n);
	{
		sigset_t pend;

		sigpending(&pend);
		tap_ok(!sigismember(&pend, SIGUSR1) &&
		       !sigismember(&pend, SIGUSR2), "read took them: no "
		       "longer pending");
	}
	close(fd);
}

static void sleeping(void)
{
	sigset_t usr1 = set_of(SIGUSR1, 0), chld = set_of(SIGCHLD, 0);
	struct sigaction sa = { .sa_handler = on_usr2 };
	struct signalfd_siginfo ss;
	struct pollfd p;
	pid_t pid;
	int fd;
	long n;

	fd = signalfd(-1, &usr1, 0);
	p = (struct pollfd){ .fd = fd, .events = POLLIN };
	tap_ok(poll(&p, 1, 0) == 0, "poll with nothing pending: 0");
	pid = fork();
	if (pid == 0) {
		usleep(100000);
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	n = read(fd, &ss, sizeof(ss));
	waitpid(pid, NULL, 0);
	tap_ok(n == 128 && ss.ssi_signo == SIGUSR1 && ss.ssi_pid ==
	       (unsigned)pid, "read sleeps until a (blocked) signal comes: "
	       "from pid %u", ss.ssi_pid);
	kill(getpid(), SIGUSR1);
	tap_ok(poll(&p, 1, 0) == 1 && p.revents == POLLIN, "poll: POLLIN");
	read(fd, &ss, sizeof(ss));
	sigaction(SIGUSR2, &sa, NULL);
	{
		sigset_t usr2 = set_of(SIGUSR2, 0);

		sigprocmask(SIG_UNBLOCK, &usr2, NULL);
	}
	pid = fork();
	if (pid == 0) {
		usleep(100000);
		kill(getppid(), SIGUSR2);
		_exit(0);
	}
	errno = 0;
	n = read(fd, &ss, sizeof(ss));
	waitpid(pid, NULL, 0);
	tap_ok(n == -1 && errno == EINTR, "a handled signal ends the read: "
	       "EINTR (%s)", strerror(errno));
	close(fd);

	sigprocmask(SIG_BLOCK, &chld, NULL);
	fd = signalfd(-1, &chld, 0);
	pid = fork();
	if (pid == 0)
		_exit(7);
	n = read(fd, &ss, sizeof(ss));
	waitpid(pid, NULL, 0);
	tap_ok(n == 128 && ss.ssi_signo == SIGCHLD && ss.ssi_code == CLD_EXITED
	       && ss.ssi_pid == (unsigned)pid && ss.ssi_status == 7,
	       "SIGCHLD: CLD_EXITED, the child's pid, status 7 (%d, %u, %d)",
	       ss.ssi_code, ss.ssi_pid, ss.ssi_status);
	close(fd);
	sigprocmask(SIG_UNBLOCK, &chld, NULL);
}

static void errors(void)
{
	sigset_t usr1 = set_of(SIGUSR1, 0), kill9 = set_of(SIGKILL, SIGSTOP);
	int p[2], fd;

	pipe(p);
	tap_fails(syscall(SYS_signalfd4, -1, &usr1, 4, 0), EINVAL,
		  "sizemask 4");
	tap_fails(syscall(SYS_signalfd4, -1, (void *)8, 8, 0), EFAULT,
		  "a bad mask");
	tap_fails(syscall(SYS_signalfd4, -1, &usr1, 8, 1), EINVAL, "flag 1");
	tap_fails(signalfd(p[0], &usr1, 0), EINVAL, "a pipe");
	tap_fails(signalfd(99, &usr1, 0), EBADF, "a closed fd");
	fd = signalfd(-1, &kill9, 0);
	tap_ok(fd >= 0, "SIGKILL and SIGSTOP in the mask: accepted (dropped)");
	close(fd);
	close(p[0]);
	close(p[1]);
}

static void with_epoll(void)
{
	sigset_t usr1 = set_of(SIGUSR1, 0);
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = 5 };
	struct signalfd_siginfo ss;
	int fd = signalfd(-1, &usr1, SFD_NONBLOCK), ep = epoll_create1(0), st;
	pid_t pid;

	epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
	tap_ok(epoll_wait(ep, &ev, 1, 0) == 0, "epoll: nothing pending");
	kill(getpid(), SIGUSR1);
	tap_ok(epoll_wait(ep, &ev, 1, 1000) == 1 && ev.data.u64 == 5,
	       "a signal wakes epoll_wait");
	read(fd, &ss, sizeof(ss));
	epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL);
	pid = fork();
	if (pid == 0) {
		struct epoll_event cev = { .events = EPOLLIN, .data.u64 = 6 };

		_exit(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &cev) ? 1 : 0);
	}
	waitpid(pid, &st, 0);
	tap_ok(st == 0 && epoll_wait(ep, &ev, 1, 0) == 0, "an item a child "
	       "added, its sighand gone since: no event (%s)",
	       status_str(st));
	kill(getpid(), SIGUSR1);
	tap_ok(epoll_wait(ep, &ev, 1, 0) == 0 && read(fd, &ss, sizeof(ss)) ==
	       128, "a signal of ours does not wake it; the file still reads");
	close(ep);
	close(fd);
	tap_ok(1, "closed without harm");
}

int main(void)
{
	tap_plan(26);
	records();
	sleeping();
	errors();
	with_epoll();
	tap_done();
}
