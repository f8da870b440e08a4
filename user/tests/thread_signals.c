/* user/tests/thread_signals.c — signals and threads: tkill/tgkill and their
 * errnos, process-directed signals taken by a thread that does not block
 * them, shared handlers and per-thread masks, a fatal signal or SIGKILL of
 * one thread ending the whole process, execve from a thread (de_thread). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

static char *self_path;
static volatile pid_t handled_in, worker_tid;
static volatile int stop_worker;

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static long tgkill(pid_t tgid, pid_t tid, int sig)
{
	return syscall(SYS_tgkill, tgid, tid, sig);
}

static long tkill(pid_t tid, int sig)
{
	return syscall(SYS_tkill, tid, sig);
}

static void on_sig(int sig)
{
	(void)sig;
	handled_in = gettid_();
}

/* A thread that blocks what it is given and waits to be told to stop. */
static void *worker(void *arg)
{
	sigset_t *block = arg;

	if (block)
		pthread_sigmask(SIG_BLOCK, block, NULL);
	worker_tid = gettid_();
	while (!stop_worker)
		usleep(1000);
	return NULL;
}

static pthread_t start_worker(sigset_t *block)
{
	pthread_t th;

	worker_tid = 0;
	stop_worker = 0;
	pthread_create(&th, NULL, worker, block);
	while (!worker_tid)
		usleep(1000);
	return th;
}

static void stop(pthread_t th)
{
	stop_worker = 1;
	pthread_join(th, NULL);
}

/* Waits up to a second for a handler to run; the tid it ran in. */
static pid_t wait_handled(void)
{
	for (int i = 0; i < 1000 && !handled_in; i++)
		usleep(1000);
	return handled_in;
}

static void test_tkill_errnos(void)
{
	pthread_t th = start_worker(NULL);
	pid_t other = fork();
	long r1, r2, r3, r4, r5, r6;
	int e1, e2, e3, e4, e5, e6;

	if (other == 0) {
		pause();
		_exit(0);
	}
	r1 = tgkill(0, worker_tid, 0);
	e1 = errno;
	r2 = tkill(0, 0);
	e2 = errno;
	r3 = tgkill(other, worker_tid, 0);
	e3 = errno;
	r4 = tgkill(getpid(), worker_tid, 65);
	e4 = errno;
	r5 = tgkill(getpid(), 0x3ffffff0, 0);
	e5 = errno;
	r6 = tgkill(getpid(), worker_tid, 0);
	e6 = errno;
	tap_ok(r1 == -1 && e1 == EINVAL && r2 == -1 && e2 == EINVAL,
	       "tgkill with tgid 0 and tkill of tid 0 are EINVAL (%s, %s)",
	       strerror(e1), strerror(e2));
	tap_ok(r3 == -1 && e3 == ESRCH,
	       "tgkill of a thread with another process's pid is ESRCH (%s)",
	       strerror(e3));
	tap_ok(r4 == -1 && e4 == EINVAL && r5 == -1 && e5 == ESRCH,
	       "signal 65 is EINVAL, a tid nobody has ESRCH (%s, %s)",
	       strerror(e4), strerror(e5));
	tap_ok(r6 == 0, "tgkill(pid, tid, 0) of our thread is 0 (%ld)", r6);
	(void)e6;
	kill(other, SIGKILL);
	waitpid(other, NULL, 0);
	stop(th);
}

static void test_thread_directed(void)
{
	pthread_t th = start_worker(NULL);

	handled_in = 0;
	tgkill(getpid(), worker_tid, SIGUSR1);
	wait_handled();
	tap_ok(handled_in == worker_tid && worker_tid != getpid(),
	       "tgkill(SIGUSR1) runs the handler in that thread (%d, handled in %d)",
	       worker_tid, handled_in);
	stop(th);
}

/* Main blocks sig, the worker does not: a kill() of the process goes to
 * the worker. Also through the worker's tid (kill of a thread id is of
 * its process). */
static void test_process_directed(void)
{
	sigset_t set, old;
	pthread_t th;

	th = start_worker(NULL);	/* before the mask: it inherits it */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	handled_in = 0;
	kill(getpid(), SIGUSR2);
	wait_handled();
	tap_ok(handled_in == worker_tid,
	       "kill(getpid()) with main blocking it: the other thread takes it (%d, handled in %d)",
	       worker_tid, handled_in);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	stop(th);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	th = start_worker(&set);
	handled_in = 0;
	kill(worker_tid, SIGUSR1);
	wait_handled();
	tap_ok(handled_in == gettid_(),
	       "kill(tid) of a thread blocking it: the process's other thread takes it (handled in %d)",
	       handled_in);
	stop(th);
}

/* ShdPnd of /proc/self/status as a number, or 0. */
static unsigned long long shdpnd(void)
{
	char buf[4096], *p;

	if (read_file("/proc/self/status", buf, sizeof(buf)) < 0 ||
	    !(p = strstr(buf, "ShdPnd:")))
		return 0;
	return strtoull(p + 7, NULL, 16);
}

/* Blocked in every thread: it waits in the process's pending set until
 * a thread unblocks it. */
static void test_blocked_everywhere(void)
{
	sigset_t set, old, pend;
	pthread_t th;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	th = start_worker(&set);
	handled_in = 0;
	kill(getpid(), SIGUSR2);
	usleep(20000);
	sigpending(&pend);
	tap_ok(!handled_in && sigismember(&pend, SIGUSR2) &&
	       (shdpnd() & (1ULL << (SIGUSR2 - 1))),
	       "blocked by every thread: pending for the process (sigpending, ShdPnd %llx)",
	       shdpnd());
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	tap_ok(handled_in == gettid_(),
	       "main unblocks it and takes it (handled in %d)", handled_in);
	stop(th);
}

static volatile int set_by_worker;

static void *install_handler(void *arg)
{
	sigset_t set;

	(void)arg;
	signal(SIGWINCH, on_sig);
	sigemptyset(&set);
	sigaddset(&set, SIGURG);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	set_by_worker = 1;
	return NULL;
}

/* sigaction is the process's, the mask the thread's. */
static void test_shared_handlers(void)
{
	struct sigaction sa;
	sigset_t mine;
	pthread_t th;

	pthread_create(&th, NULL, install_handler, NULL);
	pthread_join(th, NULL);
	sigaction(SIGWINCH, NULL, &sa);
	pthread_sigmask(SIG_BLOCK, NULL, &mine);
	tap_ok(set_by_worker && sa.sa_handler == on_sig &&
	       !sigismember(&mine, SIGURG),
	       "a handler another thread installed is ours, its mask is its own");
	signal(SIGWINCH, SIG_DFL);
}

/* In a child: a second thread that sleeps (or faults), main blocking
 * SIGTERM; the child's end as the parent sees it. */
static void *sleep_forever(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void *fault(void *arg)
{
	(void)arg;
	usleep(10000);
	poke((void *)16, 1);
	return NULL;
}

enum end { BY_SIGTERM, BY_TGKILL_SIGKILL, BY_FAULT };

static int child_ends(enum end how)
{
	sigset_t set;
	pthread_t th;
	pid_t pid, tid = 0;
	int st = -1, p[2];

	pipe(p);
	pid = fork();
	if (pid == 0) {
		worker_tid = 0;
		stop_worker = 0;
		pthread_create(&th, NULL, how == BY_FAULT ? fault : worker,
			       NULL);
		while (how != BY_FAULT && !worker_tid)
			usleep(1000);
		sigemptyset(&set);
		sigaddset(&set, SIGTERM);
		pthread_sigmask(SIG_BLOCK, &set, NULL);	/* main only */
		tid = worker_tid;
		write(p[1], &tid, sizeof(tid));
		for (;;)
			pause();
	}
	read(p[0], &tid, sizeof(tid));
	close(p[0]);
	close(p[1]);
	if (how == BY_SIGTERM)
		kill(pid, SIGTERM);
	if (how == BY_TGKILL_SIGKILL)
		tgkill(pid, tid, SIGKILL);
	waitpid(pid, &st, 0);
	return st;
}

static void test_group_ends(void)
{
	int st = child_ends(BY_SIGTERM);

	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM,
	       "SIGTERM (main blocks it, the other thread not): the whole process ends (%s)",
	       status_str(st));
	st = child_ends(BY_TGKILL_SIGKILL);
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
	       "tgkill(SIGKILL) of one thread kills the whole process (%s)",
	       status_str(st));
	st = child_ends(BY_FAULT);
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
	       "a fault in one thread kills the whole process with SIGSEGV (%s)",
	       status_str(st));
}

/* ---- execve from a thread -------------------------------------------- */

/* The new program's view: pid, tid, Threads:, sent to fd; exits 3. */
static int exec_report(int fd)
{
	char buf[4096], *p;
	int v[3] = { getpid(), gettid_(), -1 };

	if (read_file("/proc/self/status", buf, sizeof(buf)) > 0 &&
	    (p = strstr(buf, "Threads:")))
		v[2] = atoi(p + 8);
	write(fd, v, sizeof(v));
	return 3;
}

static int exec_fd;

static void *exec_self(void *arg)
{
	char fd[16], *argv[] = { self_path, "exec-report", fd, NULL };

	(void)arg;
	snprintf(fd, sizeof(fd), "%d", exec_fd);
	execv(self_path, argv);
	return NULL;
}

/* A thread (not the main one) execs while the main thread sleeps: the
 * program runs alone, with the process's pid as pid and tid. */
static void test_exec_from_thread(void)
{
	int p[2], v[3] = { 0, 0, 0 }, st = -1;
	pthread_t th[2];
	pid_t pid;

	pipe(p);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		exec_fd = p[1];
		pthread_create(&th[0], NULL, sleep_forever, NULL);
		pthread_create(&th[1], NULL, exec_self, NULL);
		for (;;)
			pause();
	}
	close(p[1]);
	read(p[0], v, sizeof(v));
	close(p[0]);
	waitpid(pid, &st, 0);
	tap_ok(v[0] == pid && v[1] == pid,
	       "execve in a thread: the program's pid and tid are the process's (%d, %d, want %d)",
	       v[0], v[1], pid);
	tap_ok(v[2] == 1, "the other threads are gone (Threads: %d)", v[2]);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 3,
	       "the parent reaps it with the new program's status (%s)",
	       status_str(st));
}

int main(int argc, char **argv)
{
	self_path = argv[0];
	if (argc == 3 && !strcmp(argv[1], "exec-report"))
		return exec_report(atoi(argv[2]));
	tap_plan(16);
	need_proc();
	signal(SIGUSR1, on_sig);
	signal(SIGUSR2, on_sig);
	test_tkill_errnos();
	test_thread_directed();
	test_process_directed();
	test_blocked_everywhere();
	test_shared_handlers();
	test_group_ends();
	test_exec_from_thread();
	tap_done();
}
