/* user/tests/pidfd.c — pidfd_open(2) and process_mrelease(2): Linux's
 * errnos, a pidfd as a close-on-exec file that holds a process (a zombie
 * until it is reaped, then -ESRCH), poll on it (readable once the process
 * has exited), pidfd_send_signal (Linux 6.18's: its scopes, its siginfo
 * checks), and process_mrelease freeing a SIGKILLed child's memory
 * before its exit does (mrelease_test's case). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procfs.h"
#include "ulib.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open		434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal	424
#endif
#ifndef SYS_process_mrelease
#define SYS_process_mrelease	448
#endif
#define PIDFD_NONBLOCK		O_NONBLOCK
#define PIDFD_SIGNAL_THREAD		1
#define PIDFD_SIGNAL_THREAD_GROUP	2
#define PIDFD_SIGNAL_PROCESS_GROUP	4
#define CHILD_MB		4

static int pidfd_open(int pid, unsigned int flags)
{
	return (int)syscall(SYS_pidfd_open, pid, flags);
}

static int send_sig(int pidfd, int sig, siginfo_t *info, unsigned int flags)
{
	return (int)syscall(SYS_pidfd_send_signal, pidfd, sig, info, flags);
}

static int mrelease(int pidfd, unsigned int flags)
{
	return (int)syscall(SYS_process_mrelease, pidfd, flags);
}

static int fails(long r, int e)
{
	return r < 0 && errno == e;
}

/* A child that has exited and been reaped: its pid is free. */
static int gone_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

static void opening(void)
{
	int fd = pidfd_open(getpid(), 0), fl;
	char c, path[64], link[64] = "";
	long n;

	tap_ok(fd >= 0, "pidfd_open of the caller");
	fl = fcntl(fd, F_GETFD);
	tap_ok(fl >= 0 && (fl & FD_CLOEXEC), "it is close-on-exec");
	tap_ok(fails(read(fd, &c, 1), EINVAL) && fails(write(fd, "x", 1),
						      EINVAL),
	       "read and write on it: EINVAL");
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = 0;
	tap_ok(!strcmp(link, "anon_inode:[pidfd]"), "its fd link: %s", link);
	close(fd);
	fd = pidfd_open(getpid(), PIDFD_NONBLOCK);
	fl = fcntl(fd, F_GETFL);
	tap_ok(fd >= 0 && fl >= 0 && (fl & O_NONBLOCK),
	       "PIDFD_NONBLOCK: an O_NONBLOCK file");
	close(fd);
	tap_ok(fails(pidfd_open(getpid(), 1), EINVAL),
	       "an unknown flag: EINVAL");
	tap_ok(fails(pidfd_open(0, 0), EINVAL) && fails(pidfd_open(-1, 0),
							EINVAL),
	       "pid 0 and -1: EINVAL");
	tap_ok(fails(pidfd_open(gone_pid(), 0), ESRCH), "a reaped pid: ESRCH");
}

/* A thread still running: its id is not a process's. */
static pthread_mutex_t hold = PTHREAD_MUTEX_INITIALIZER;
static volatile long live_tid;

static void *held_thread(void *arg)
{
	(void)arg;
	live_tid = syscall(SYS_gettid);
	pthread_mutex_lock(&hold);
	pthread_mutex_unlock(&hold);
	return NULL;
}

static void thread_id(void)
{
	pthread_t th;

	pthread_mutex_lock(&hold);
	pthread_create(&th, NULL, held_thread, NULL);
	while (!live_tid)
		sched_yield();
	/* Linux 6.1 (zpk's reference): EINVAL; this host's newer Linux
	 * says ENOENT (no thread-group leader of that pid). */
	tap_ok(fails(pidfd_open((int)live_tid, 0), EINVAL) ||
	       (!is_zpk() && errno == ENOENT),
	       "a thread's id (not the leader's): EINVAL");
	pthread_mutex_unlock(&hold);
	pthread_join(th, NULL);
}

/* A zombie has a pidfd until wait4 reaps it. */
static void zombie(void)
{
	pid_t pid = fork();
	int fd;

	if (pid == 0)
		_exit(0);
	while (1) {	/* a zombie once its stat says so */
		struct proc_stat st;

		if (proc_stat_read(pid, &st) == 0 && st.state == 'Z')
			break;
		usleep(1000);
	}
	fd = pidfd_open(pid, 0);
	tap_ok(fd >= 0, "pidfd_open of a zombie");
	tap_ok(fails(mrelease(fd, 0), ESRCH), "process_mrelease of a zombie "
	       "(no mm left): ESRCH");
	waitpid(pid, NULL, 0);
	tap_ok(fails(pidfd_open(pid, 0), ESRCH), "once reaped: ESRCH");
	tap_ok(fails(mrelease(fd, 0), ESRCH), "its old pidfd: ESRCH");
	close(fd);
}

/* The revents of one poll of fd for POLLIN, waiting up to ms. */
static int poll_in(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) < 0 ? -1 : p.revents;
}

/* A child that exits when the pipe p has a byte (the main thread after
 * a thread of its own, if leader_first). */
static void *read_then_exit(void *arg)
{
	char c;

	read(*(int *)arg, &c, 1);
	_exit(0);
}

static pid_t waiting_child(int p[2], int leader_first)
{
	pid_t pid;
	pthread_t t;

	pipe(p);
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		if (!leader_first)
			read_then_exit(&p[0]);
		pthread_create(&t, NULL, read_then_exit, &p[0]);
		syscall(SYS_exit, 0);	/* the main thread only */
	}
	close(p[0]);
	return pid;
}

/* Linux's pidfd_poll: POLLIN once the whole process has exited (not
 * when its main thread has, before the others), POLLHUP too once it is
 * reaped; a poller sleeps until then. */
static void polling(void)
{
	int p[2], fd, r;
	pid_t pid = waiting_child(p, 0);

	fd = pidfd_open(pid, 0);
	r = poll_in(fd, 0);
	tap_ok(r == 0, "poll of a live child's pidfd: nothing (%#x)", r);
	write(p[1], "", 1);
	r = poll_in(fd, 10000);
	tap_ok(r == POLLIN, "a poll asleep on it wakes with POLLIN as the "
	       "child exits (%#x)", r);
	waitpid(pid, NULL, 0);
	r = poll_in(fd, 0);
	tap_ok(r == (POLLIN | POLLHUP), "once reaped: POLLIN | POLLHUP "
	       "(%#x)", r);
	close(fd);
	close(p[1]);

	pid = waiting_child(p, 1);
	fd = pidfd_open(pid, 0);
	while (1) {	/* the leader is a zombie, its thread lives */
		struct proc_stat st;

		if (proc_stat_read(pid, &st) == 0 && st.state == 'Z')
			break;
		usleep(1000);
	}
	r = poll_in(fd, 20);
	tap_ok(r == 0, "a child whose main thread exited but not its other "
	       "thread: nothing (%#x)", r);
	write(p[1], "", 1);
	r = poll_in(fd, 10000);
	tap_ok(r == POLLIN, "POLLIN when that thread exits too (%#x)", r);
	waitpid(pid, NULL, 0);
	close(fd);
	close(p[1]);
}

static int report_fd;

/* The child's SIGUSR1: its si_code, si_pid and si_value on the pipe. */
static void report_usr1(int sig, siginfo_t *si, void *uc)
{
	int v[3] = { si->si_code, si->si_pid, si->si_value.sival_int };

	(void)sig;
	(void)uc;
	write(report_fd, v, sizeof(v));
}

/* A child that reports each SIGUSR1 it takes on p (report_usr1); with
 * lead, it leads a process group of its own with a grandchild in it,
 * whose pid *gc gets. It says it is ready first. */
static pid_t signal_child(int p[2], int lead, pid_t *gc)
{
	struct sigaction sa = { .sa_sigaction = report_usr1,
				.sa_flags = SA_SIGINFO };
	pid_t pid, g = 0;

	pipe(p);
	pid = fork();
	if (pid == 0) {
		report_fd = p[1];
		sigaction(SIGUSR1, &sa, NULL);
		if (lead && setpgid(0, 0) == 0 && (g = fork()) == 0)
			for (;;)
				pause();
		write(p[1], &g, sizeof(g));
		for (;;)
			pause();
	}
	read(p[0], &g, sizeof(g));
	if (gc)
		*gc = g;
	return pid;
}

/* The child's report of a SIGUSR1: 0, or -1 if none came within 5 s. */
static int usr1_report(int fd, int v[3])
{
	return poll_in(fd, 5000) == POLLIN &&
	       read(fd, v, 3 * sizeof(int)) == 3 * sizeof(int) ? 0 : -1;
}

/* Gone, or a zombie (a subreaper's), within 5 s. */
static int dies(pid_t pid)
{
	for (int i = 0; i < 500; i++) {
		struct proc_stat st;

		if (proc_stat_read(pid, &st) < 0 || st.state == 'Z')
			return 1;
		usleep(10000);
	}
	return 0;
}

static void sending(void)
{
	siginfo_t si = { .si_signo = SIGUSR1, .si_code = -1 /* SI_QUEUE */ };
	int p[2], fd, st = 0, v[3] = { 0 }, ok;
	pid_t pid = signal_child(p, 0, NULL), gc;

	fd = pidfd_open(pid, 0);
	ok = send_sig(fd, 0, NULL, 0) == 0 &&
	     send_sig(fd, SIGUSR1, NULL, 0) == 0 && !usr1_report(p[0], v);
	tap_ok(ok && v[0] == SI_USER && v[1] == getpid(), "pidfd_send_signal: "
	       "sig 0 probes, SIGUSR1 arrives with SI_USER and the sender's "
	       "pid (si_code %d, si_pid %d)", v[0], v[1]);
	si.si_value.sival_int = 42;
	ok = send_sig(fd, SIGUSR1, &si, 0) == 0 && !usr1_report(p[0], v);
	tap_ok(ok && v[0] == -1 && v[2] == 42, "a siginfo of SI_QUEUE goes as "
	       "given (si_code %d, si_value %d)", v[0], v[2]);
	ok = send_sig(fd, SIGUSR1, NULL, PIDFD_SIGNAL_THREAD) == 0 &&
	     !usr1_report(p[0], v) && v[0] == SI_TKILL;
	ok = ok && send_sig(fd, SIGUSR1, NULL, PIDFD_SIGNAL_THREAD_GROUP) == 0 &&
	     !usr1_report(p[0], v) && v[0] == SI_USER;
	tap_ok(ok, "PIDFD_SIGNAL_THREAD sends as tgkill (SI_TKILL), "
	       "PIDFD_SIGNAL_THREAD_GROUP as kill");
	ok = fails(send_sig(fd, SIGUSR2, &si, 0), EINVAL);
	si.si_code = SI_USER;
	ok = ok && fails(send_sig(fd, SIGUSR1, &si, 0), EPERM) &&
	     fails(send_sig(fd, 65, NULL, 0), EINVAL) &&
	     fails(send_sig(fd, SIGUSR1, NULL, 8), EINVAL) &&
	     fails(send_sig(fd, SIGUSR1, NULL, PIDFD_SIGNAL_THREAD |
			    PIDFD_SIGNAL_THREAD_GROUP), EINVAL);
	tap_ok(ok, "EINVAL for a siginfo of another signal, EPERM for one "
	       "with si_code >= 0 to another process, EINVAL for signal 65, "
	       "an unknown flag or two scopes");
	tap_ok(fails(send_sig(-1, SIGUSR1, NULL, 0), EBADF) &&
	       fails(send_sig(p[0], SIGUSR1, NULL, 0), EBADF),
	       "EBADF for -1 and a file that is not a pidfd");
	ok = send_sig(fd, SIGTERM, NULL, 0) == 0;
	if (!ok)
		kill(pid, SIGKILL);	/* not to wait for it forever */
	ok = waitpid(pid, &st, 0) == pid && ok;
	tap_ok(ok && WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM, "SIGTERM "
	       "kills the child (%s)", status_str(st));
	tap_ok(fails(send_sig(fd, 0, NULL, 0), ESRCH) &&
	       fails(send_sig(fd, SIGTERM, NULL, 0), ESRCH),
	       "once it is reaped: ESRCH");
	close(fd);
	close(p[0]);
	close(p[1]);

	signal(SIGUSR1, SIG_IGN);
	fd = pidfd_open(getpid(), 0);
	tap_ok(send_sig(fd, SIGUSR1, &si, 0) == 0, "to itself any si_code "
	       "goes");
	signal(SIGUSR1, SIG_DFL);
	close(fd);

	pid = signal_child(p, 1, &gc);
	fd = pidfd_open(pid, 0);
	st = 0;
	ok = gc > 0 && send_sig(fd, SIGKILL, NULL,
				PIDFD_SIGNAL_PROCESS_GROUP) == 0;
	if (!ok)
		kill(-pid, SIGKILL);
	ok = waitpid(pid, &st, 0) == pid && ok;
	tap_ok(ok && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL && dies(gc),
	       "PIDFD_SIGNAL_PROCESS_GROUP: the group it leads, its child "
	       "too (%s)", status_str(st));
	close(fd);
	close(p[0]);
	close(p[1]);
}

/* A child holding CHILD_MB of written memory, waiting to be killed. */
static pid_t memory_child(void)
{
	int p[2];
	pid_t pid;
	char c;

	pipe(p);
	pid = fork();
	if (pid == 0) {
		size_t len = CHILD_MB << 20;
		char *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		memset(m, 1, len);
		write(p[1], "", 1);
		for (;;)
			pause();
	}
	close(p[1]);
	read(p[0], &c, 1);
	close(p[0]);
	return pid;
}

static void mreleasing(void)
{
	int fd = open("/proc/self/status", O_RDONLY), tries, r = -1, e = 0;
	long long anon = -1;
	char path[64];
	pid_t pid;

	tap_ok(fails(mrelease(-1, 0), EBADF), "process_mrelease(-1): EBADF");
	tap_ok(fails(mrelease(fd, 0), EBADF), "of a file that is not a pidfd: "
	       "EBADF");
	close(fd);
	fd = pidfd_open(getpid(), 0);
	tap_ok(fails(mrelease(fd, 0), EINVAL), "of the caller, alive: EINVAL");
	close(fd);
	for (tries = 0; tries < 8 && r; tries++) {
		pid = memory_child();
		fd = pidfd_open(pid, 0);
		if (!tries) {
			tap_ok(fails(mrelease(fd, 1), EINVAL),
			       "a flag: EINVAL");
			tap_ok(fails(mrelease(fd, 0), EINVAL),
			       "a live child: EINVAL");
		}
		kill(pid, SIGKILL);
		r = mrelease(fd, 0);
		e = errno;
		snprintf(path, sizeof(path), "/proc/%d/status", pid);
		anon = r ? -1 : proc_kb(path, "RssAnon");
		waitpid(pid, NULL, 0);
		close(fd);
		if (r && e != ESRCH)	/* ESRCH: it exited first */
			break;
	}
	tap_ok(r == 0, "a SIGKILLed child: released (%d tries; %s)", tries,
	       r ? strerror(e) : "0");
	tap_ok(anon < (CHILD_MB << 10) / 4, "its RssAnon is down to %lld kB "
	       "(-1: gone already) from %d MiB", anon, CHILD_MB);
}

int main(void)
{
	tap_plan(34);
	opening();
	thread_id();
	zombie();
	polling();
	sending();
	mreleasing();
	tap_done();
}
