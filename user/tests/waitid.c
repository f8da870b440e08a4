/* user/tests/waitid.c — waitid (247) as Linux: P_ALL, P_PID, P_PGID and
 * P_PIDFD; WEXITED, WSTOPPED, WCONTINUED, WNOHANG, WNOWAIT; the siginfo
 * it fills (si_signo, si_code, si_pid, si_uid, si_status), its rusage,
 * and its errors in Linux's order. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#ifndef P_PIDFD
#define P_PIDFD		3
#endif
#define PIDFD_NONBLOCK	04000

static long wid(int which, int id, siginfo_t *si, int options,
		struct rusage *ru)
{
	if ((unsigned long)si >= 4096)
		memset(si, 0x5a, sizeof(*si));
	return syscall(SYS_waitid, which, id, si, options, ru) ? -errno : 0;
}

static pid_t child_exit(int code)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(code);
	return pid;
}

/* A child that waits to be killed. */
static pid_t child_pause(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		for (;;)
			pause();
	}
	return pid;
}

static int pidfd_open(pid_t pid, unsigned int flags)
{
	return (int)syscall(SYS_pidfd_open, pid, flags);
}

static void check_errors(void)
{
	siginfo_t si;

	tap_ok(wid(P_ALL, 0, &si, 0, NULL) == -EINVAL &&
	       wid(P_ALL, 0, &si, WNOHANG, NULL) == -EINVAL,
	       "none of WEXITED, WSTOPPED, WCONTINUED: EINVAL");
	tap_ok(wid(P_ALL, 0, &si, WEXITED | 0x10, NULL) == -EINVAL,
	       "an unknown option is EINVAL");
	tap_ok(wid(4, 0, &si, WEXITED, NULL) == -EINVAL &&
	       wid(-1, 0, &si, WEXITED, NULL) == -EINVAL,
	       "an unknown idtype is EINVAL");
	tap_ok(wid(P_PID, 0, &si, WEXITED, NULL) == -EINVAL &&
	       wid(P_PID, -3, &si, WEXITED, NULL) == -EINVAL &&
	       wid(P_PGID, -1, &si, WEXITED, NULL) == -EINVAL &&
	       wid(P_PIDFD, -1, &si, WEXITED, NULL) == -EINVAL,
	       "P_PID <= 0, P_PGID < 0, P_PIDFD < 0: EINVAL");
	tap_ok(wid(P_ALL, 0, &si, WEXITED, NULL) == -ECHILD &&
	       wid(P_PID, 1, &si, WEXITED, NULL) == -ECHILD &&
	       wid(P_PGID, 0, &si, WEXITED | WNOHANG, NULL) == -ECHILD,
	       "no such child: ECHILD (WNOHANG too)");
	tap_ok(wid(P_PIDFD, 99, &si, WEXITED, NULL) == -EBADF &&
	       wid(P_PIDFD, 0, &si, WEXITED, NULL) == -EBADF,
	       "P_PIDFD of no descriptor or not a pidfd: EBADF");
}

static void check_exits(void)
{
	struct rusage ru;
	siginfo_t si;
	pid_t pid;
	long r;

	pid = child_exit(7);
	r = wid(P_PID, pid, &si, WEXITED, NULL);
	tap_ok(r == 0 && si.si_signo == SIGCHLD && si.si_errno == 0 &&
	       si.si_code == CLD_EXITED && si.si_status == 7 &&
	       si.si_pid == pid && si.si_uid == getuid(),
	       "an exit: SIGCHLD, CLD_EXITED, status 7, its pid and uid "
	       "(%ld: %d %d %d %d)", r, si.si_signo, si.si_code,
	       si.si_status, si.si_pid);
	tap_ok(waitpid(pid, NULL, WNOHANG) == -1 && errno == ECHILD,
	       "and it is reaped");

	pid = child_pause();
	kill(pid, SIGTERM);
	r = wid(P_ALL, 0, &si, WEXITED, &ru);
	tap_ok(r == 0 && si.si_code == CLD_KILLED && si.si_status == SIGTERM &&
	       si.si_pid == pid, "a kill: CLD_KILLED, status SIGTERM "
	       "(%d %d)", si.si_code, si.si_status);

	pid = child_exit(3);
	r = wid(P_PID, pid, &si, WEXITED | WNOWAIT, NULL);
	tap_ok(r == 0 && si.si_code == CLD_EXITED && si.si_status == 3,
	       "WNOWAIT reports the exit");
	r = wid(P_PID, pid, &si, WEXITED | WNOWAIT, NULL);
	tap_ok(r == 0 && si.si_pid == pid, "and again");
	{
		int st = -1;

		tap_ok(waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
		       WEXITSTATUS(st) == 3,
		       "then wait4 still reaps it (%s)", status_str(st));
	}

	pid = child_pause();
	r = wid(P_PID, pid, &si, WEXITED | WNOHANG, NULL);
	tap_ok(r == 0 && si.si_signo == 0 && si.si_pid == 0 &&
	       si.si_status == 0 && si.si_code == 0,
	       "WNOHANG with nothing yet: 0, si_signo and si_pid 0");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);

	pid = fork();
	if (pid == 0) {
		char *p = mmap(NULL, 64 * 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		for (int i = 0; i < 64; i++)
			p[i * 4096] = 1;
		_exit(0);
	}
	memset(&ru, 0, sizeof(ru));
	r = wid(P_PID, pid, NULL, WEXITED, &ru);
	tap_ok(r == 0 && ru.ru_minflt >= 64,
	       "a NULL infop is fine; rusage is the child's (%ld faults)",
	       ru.ru_minflt);

	pid = child_exit(0);
	usleep(50000);
	r = wid(P_PID, pid, (siginfo_t *)8, WEXITED, NULL);
	tap_ok(r == -EFAULT && waitpid(pid, NULL, WNOHANG) == -1 &&
	       errno == ECHILD, "a bad infop: EFAULT, the child reaped "
	       "all the same (%ld)", r);
}

static void check_stops(void)
{
	siginfo_t si;
	int fds[2];
	pid_t pid;
	long r;
	char c;

	pid = child_exit(5);
	usleep(50000);
	r = wid(P_PID, pid, &si, WSTOPPED | WCONTINUED, NULL);
	tap_ok(r == -ECHILD, "without WEXITED a zombie is nothing to wait "
	       "for: ECHILD (%ld)", r);
	r = wid(P_PID, pid, &si, WEXITED, NULL);
	tap_ok(r == 0 && si.si_status == 5, "WEXITED then takes it");

	/* The child waits on a pipe once resumed: had it exited before
	 * waitid ran, it would be a zombie, which WCONTINUED alone does not
	 * report (on Linux either). */
	if (pipe(fds))
		fds[0] = fds[1] = -1;
	pid = fork();
	if (pid == 0) {
		close(fds[1]);
		raise(SIGSTOP);
		(void)!read(fds[0], &c, 1);
		_exit(9);
	}
	close(fds[0]);
	r = wid(P_PID, pid, &si, WSTOPPED, NULL);
	tap_ok(r == 0 && si.si_code == CLD_STOPPED && si.si_status == SIGSTOP &&
	       si.si_pid == pid, "WSTOPPED: CLD_STOPPED, status SIGSTOP "
	       "(%d %d)", si.si_code, si.si_status);
	r = wid(P_PID, pid, &si, WSTOPPED | WNOHANG, NULL);
	tap_ok(r == 0 && si.si_pid == 0, "a stop is reported once");
	kill(pid, SIGCONT);
	r = wid(P_PID, pid, &si, WCONTINUED, NULL);
	tap_ok(r == 0 && si.si_code == CLD_CONTINUED &&
	       si.si_status == SIGCONT, "WCONTINUED: CLD_CONTINUED, status "
	       "SIGCONT (%d %d)", si.si_code, si.si_status);
	close(fds[1]);
	r = wid(P_PID, pid, &si, WEXITED, NULL);
	tap_ok(r == 0 && si.si_code == CLD_EXITED && si.si_status == 9,
	       "then its exit");
}

static void check_groups_pidfds(void)
{
	siginfo_t si;
	pid_t pid, other;
	long r;
	int fd;

	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		usleep(100000);
		_exit(4);
	}
	setpgid(pid, pid);
	other = child_exit(6);
	r = wid(P_PGID, pid, &si, WEXITED, NULL);
	tap_ok(r == 0 && si.si_pid == pid && si.si_status == 4,
	       "P_PGID takes only that group's child (%d)", si.si_pid);
	r = wid(P_PGID, 0, &si, WEXITED, NULL);
	tap_ok(r == 0 && si.si_pid == other, "P_PGID 0: the caller's group");

	pid = child_pause();
	fd = pidfd_open(pid, PIDFD_NONBLOCK);
	r = wid(P_PIDFD, fd, &si, WEXITED, NULL);
	tap_ok(r == -EAGAIN, "P_PIDFD of a nonblocking pidfd, nothing yet: "
	       "EAGAIN (%ld)", r);
	r = wid(P_PIDFD, fd, &si, WEXITED | WNOHANG, NULL);
	tap_ok(r == 0 && si.si_pid == 0, "... with WNOHANG: 0");
	close(fd);
	fd = pidfd_open(pid, 0);
	kill(pid, SIGKILL);
	r = wid(P_PIDFD, fd, &si, WEXITED, NULL);
	tap_ok(r == 0 && si.si_pid == pid && si.si_code == CLD_KILLED &&
	       si.si_status == SIGKILL, "P_PIDFD waits for and reaps its "
	       "process (%ld)", r);
	r = wid(P_PIDFD, fd, &si, WEXITED, NULL);
	tap_ok(r == -ECHILD, "once reaped: ECHILD (%ld)", r);
	close(fd);
	fd = pidfd_open(getpid(), 0);
	tap_ok(wid(P_PIDFD, fd, &si, WEXITED | WNOHANG, NULL) == -ECHILD,
	       "a pidfd of a process that is no child: ECHILD");
	close(fd);
}

int main(void)
{
	tap_plan(28);
	check_errors();
	check_exits();
	check_stops();
	check_groups_pidfds();
	tap_done();
}
