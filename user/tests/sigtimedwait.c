/* user/tests/sigtimedwait.c — rt_sigtimedwait (sigwaitinfo and
 * sigtimedwait: a pending signal taken without its handler, a signal
 * sent while waiting, the timeout, EINTR, SIGKILL ignored in the set,
 * Linux's errnos) and rt_sigqueueinfo / rt_tgsigqueueinfo (sigqueue's
 * value, and who may claim which si_code). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ulib.h"

static volatile sig_atomic_t handled;

static void on_sig(int sig)
{
	handled = sig;
}

static sigset_t set_of(int sig)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, sig);
	return s;
}

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 +
	       (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/* A child that sends sig to us (the parent) after ms. */
static pid_t send_later(int sig, int ms)
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0) {
		usleep(ms * 1000);
		kill(parent, sig);
		_exit(0);
	}
	return pid;
}

static void pending_taken(void)
{
	sigset_t s = set_of(SIGUSR1);
	siginfo_t si = { 0 };
	int r;

	raise(SIGUSR1);
	r = sigwaitinfo(&s, &si);
	tap_ok(r == SIGUSR1 && si.si_signo == SIGUSR1 && si.si_pid ==
	       getpid() && !handled, "a pending blocked SIGUSR1 is taken (%d), "
	       "with its sender (%d), and no handler runs", r, (int)si.si_pid);
	sigpending(&s);
	tap_ok(!sigismember(&s, SIGUSR1), "... and is no longer pending");
}

static void timeouts(void)
{
	sigset_t s = set_of(SIGUSR1), k = set_of(SIGKILL);
	struct timespec zero = { 0, 0 }, t50 = { 0, 50000000 }, t0;
	struct timespec bad = { 0, 1000000000 };
	int r, e;
	long ms;

	r = sigtimedwait(&s, NULL, &zero);
	e = errno;
	tap_ok(r == -1 && e == EAGAIN, "nothing pending, a zero timeout: "
	       "EAGAIN (%s)", strerror(e));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = sigtimedwait(&s, NULL, &t50);
	e = errno;
	ms = ms_since(&t0);
	tap_ok(r == -1 && e == EAGAIN && ms >= 40, "a 50 ms timeout: EAGAIN "
	       "after %ld ms", ms);
	r = sigtimedwait(&s, NULL, &bad);
	e = errno;
	tap_ok(r == -1 && e == EINVAL, "tv_nsec of 1e9: EINVAL (%s)",
	       strerror(e));
	r = syscall(SYS_rt_sigtimedwait, &s, NULL, &zero, 4);
	e = errno;
	tap_ok(r == -1 && e == EINVAL, "a bad sigsetsize: EINVAL (%s)",
	       strerror(e));
	r = syscall(SYS_rt_sigtimedwait, (void *)8, NULL, &zero, 8);
	e = errno;
	tap_ok(r == -1 && e == EFAULT, "a bad set: EFAULT (%s)", strerror(e));
	r = sigtimedwait(&k, NULL, &zero);
	e = errno;
	tap_ok(r == -1 && e == EAGAIN, "SIGKILL in the set is ignored: "
	       "EAGAIN (%s)", strerror(e));
}

static void sent_while_waiting(void)
{
	sigset_t s = set_of(SIGUSR1);
	struct timespec t5 = { 5, 0 };
	siginfo_t si = { 0 };
	pid_t pid = send_later(SIGUSR1, 50);
	int r = sigtimedwait(&s, &si, &t5);

	waitpid(pid, NULL, 0);
	tap_ok(r == SIGUSR1 && si.si_pid == pid && si.si_code == SI_USER &&
	       !handled, "a SIGUSR1 sent while it waits ends the wait (%d) "
	       "with kill's info (pid %d, code %d)", r, (int)si.si_pid,
	       si.si_code);
	/* unblocked, with a handler; the raw call, for musl's sigwaitinfo
	 * goes on after EINTR */
	pid = send_later(SIGUSR2, 50);
	r = syscall(SYS_rt_sigtimedwait, &s, &si, NULL, 8);
	tap_ok(r == -1 && errno == EINTR && handled == SIGUSR2, "another "
	       "signal with a handler: EINTR, after the handler (%d)",
	       (int)handled);
	waitpid(pid, NULL, 0);
	handled = 0;
}

static void queued(void)
{
	sigset_t s = set_of(SIGUSR1);
	union sigval v = { .sival_int = 42 };
	siginfo_t si = { 0 };
	int r, st, e;
	pid_t pid;

	r = sigqueue(getpid(), SIGUSR1, v) ? -1 : sigwaitinfo(&s, &si);
	tap_ok(r == SIGUSR1 && si.si_code == SI_QUEUE && si.si_value.sival_int
	       == 42 && si.si_pid == getpid(), "sigqueue to oneself: "
	       "SI_QUEUE (%d), the value (%d)", si.si_code,
	       si.si_value.sival_int);
	pid = fork();
	if (pid == 0) {
		struct timespec t5 = { 5, 0 };

		r = sigtimedwait(&s, &si, &t5);
		_exit(r == SIGUSR1 && si.si_code == SI_QUEUE ?
		      si.si_value.sival_int : 1);
	}
	memset(&si, 0, sizeof(si));
	si.si_code = SI_USER;
	r = syscall(SYS_rt_sigqueueinfo, pid, SIGUSR1, &si);
	e = errno;
	tap_ok(r == -1 && e == EPERM, "claiming SI_USER to another process: "
	       "EPERM (%s)", strerror(e));
	si.si_code = SI_QUEUE;
	si.si_value.sival_int = 7;
	r = syscall(SYS_rt_sigqueueinfo, pid, SIGUSR1, &si);
	waitpid(pid, &st, 0);
	tap_ok(r == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 7, "SI_QUEUE to "
	       "a child: it takes the value 7 (%s)", status_str(st));
	r = syscall(SYS_rt_sigqueueinfo, pid, SIGUSR1, &si);
	e = errno;
	tap_ok(r == -1 && e == ESRCH, "to a reaped pid: ESRCH (%s)",
	       strerror(e));
	r = syscall(SYS_rt_tgsigqueueinfo, 0, getpid(), SIGUSR1, &si);
	e = errno;
	tap_ok(r == -1 && e == EINVAL, "rt_tgsigqueueinfo with tgid 0: "
	       "EINVAL (%s)", strerror(e));
	r = syscall(SYS_rt_tgsigqueueinfo, getpid(), gettid(), SIGUSR1, &si);
	memset(&si, 0, sizeof(si));
	r = r ? -1 : sigwaitinfo(&s, &si);
	tap_ok(r == SIGUSR1 && si.si_value.sival_int == 7, "rt_tgsigqueueinfo "
	       "to this thread (%d)", si.si_value.sival_int);
}

int main(void)
{
	sigset_t s = set_of(SIGUSR1);

	tap_plan(16);
	signal(SIGUSR1, on_sig);
	signal(SIGUSR2, on_sig);
	sigprocmask(SIG_BLOCK, &s, NULL);
	pending_taken();
	timeouts();
	sent_while_waiting();
	queued();
	tap_done();
}
