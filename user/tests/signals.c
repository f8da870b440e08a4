/* user/tests/signals.c — signal delivery: SA_SIGINFO for faults (si_addr,
 * si_code), siglongjmp out, masks, kill() of a child, SIGCHLD, EINTR,
 * pause(). */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ulib.h"

static sigjmp_buf env;
static volatile sig_atomic_t got, got_sig, usr2_blocked, self_blocked;
static siginfo_t info;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_sig = sig;
	info = *si;
	siglongjmp(env, 1);
}

static void on_fault_exit(int sig)
{
	_exit(sig == SIGSEGV ? 33 : 34);
}

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
	sigset_t cur;

	(void)uc;
	got++;
	got_sig = sig;
	info = *si;
	sigprocmask(SIG_BLOCK, NULL, &cur);
	self_blocked = sigismember(&cur, SIGUSR1);
	usr2_blocked = sigismember(&cur, SIGUSR2);
}

static void handle(int sig, void (*fn)(int, siginfo_t *, void *), int mask2)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (mask2)
		sigaddset(&sa.sa_mask, SIGUSR2);
	sigaction(sig, &sa, NULL);
}

/* Touch addr (write if w) under on_fault; true if it faulted. */
static int faults(void *addr, int w)
{
	got_sig = 0;
	memset(&info, 0, sizeof(info));
	if (sigsetjmp(env, 1) == 0) {
		if (w)
			poke(addr, 1);
		else
			peek(addr);
		return 0;
	}
	return 1;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static void fault_blocked(void *addr)
{
	sigset_t set;

	handle(SIGSEGV, on_fault, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGSEGV);
	sigprocmask(SIG_BLOCK, &set, NULL);
	peek(addr);
	_exit(0);
}

static void fault_ignored(void *addr)
{
	signal(SIGSEGV, SIG_IGN);
	peek(addr);
	_exit(0);
}

static void fault_exit(void *addr)
{
	signal(SIGSEGV, on_fault_exit);
	peek(addr);
	_exit(0);
}

/* A sleep a signal must end: 0 if it ended with EINTR after the
 * handler ran, as sent by our parent. */
static int sleep_nanosleep(void)
{
	struct timespec ts = { 30, 0 };
	int r = nanosleep(&ts, &ts), err = errno;

	return r == -1 && err == EINTR && got >= 1 &&
	       info.si_pid == getppid() ? 0 : 1;
}

static int sleep_pause(void)
{
	int r = pause(), err = errno;

	return r == -1 && err == EINTR && got >= 1 ? 0 : 1;
}

/*
 * kill() a child with a handler, asleep in sleep(): its wait status. The
 * first signal may land before the child is asleep, so it is repeated
 * until the child is gone (killed after 5 s).
 */
static int interrupted(int (*sleep)(void))
{
	int p[2], st = -1, i;
	pid_t pid;
	char c;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		got = 0;
		handle(SIGUSR1, on_usr1, 0);
		write(p[1], "r", 1);
		_exit(sleep());
	}
	read(p[0], &c, 1);
	for (i = 0; i < 500; i++) {
		kill(pid, SIGUSR1);
		sleep_ms(10);
		if (waitpid(pid, &st, WNOHANG) == pid)
			break;
	}
	if (i == 500) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
	}
	close(p[0]);
	close(p[1]);
	return st;
}

/* A child that leads a group of its own, waiting to be killed. */
static pid_t group_leader(int ready)
{
	pid_t pid = fork();

	if (pid == 0) {
		setpgid(0, 0);	/* zpk: each process is its own group */
		write(ready, "r", 1);
		for (;;)
			pause();
	}
	return pid;
}

/* kill(-a) with a and b each leading a group: a dies, b lives (zpk once
 * killed every process for any pid below -1). 0 if so. */
static int group_kill(void)
{
	int p[2], sa = -1, sb = -1, ok;
	pid_t a, b;
	char c;

	if (pipe(p))
		return -1;
	a = group_leader(p[1]);
	b = group_leader(p[1]);
	read(p[0], &c, 1);
	read(p[0], &c, 1);
	ok = kill(-a, SIGTERM) == 0 && waitpid(a, &sa, 0) == a &&
	     WIFSIGNALED(sa) && WTERMSIG(sa) == SIGTERM;
	sleep_ms(50);
	ok &= waitpid(b, &sb, WNOHANG) == 0;
	kill(b, SIGKILL);
	waitpid(b, &sb, 0);
	close(p[0]);
	close(p[1]);
	return ok ? 0 : sa;
}

int main(void)
{
	char *page, *gone;
	struct sigaction old;
	sigset_t set, cur;
	int st, err, r, i;
	pid_t pid;

	tap_plan(28);

	page = mmap(NULL, 2 * PAGE_SIZE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	gone = page + PAGE_SIZE;
	munmap(gone, PAGE_SIZE);

	/* Faults caught with SA_SIGINFO, left by siglongjmp. */
	handle(SIGSEGV, on_fault, 0);
	tap_ok(faults(gone + 123, 0) && got_sig == SIGSEGV,
	       "read of an unmapped page runs the SIGSEGV handler");
	tap_ok(info.si_signo == SIGSEGV && info.si_code == SEGV_MAPERR,
	       "si_signo SIGSEGV, si_code SEGV_MAPERR (%d)", info.si_code);
	tap_ok(info.si_addr == gone + 123, "si_addr is the bad address (%p, "
	       "wanted %p)", info.si_addr, gone + 123);
	r = faults(page + 7, 1);
	tap_ok(r && info.si_code == SEGV_ACCERR && info.si_addr == page + 7,
	       "write to a read-only page: SEGV_ACCERR at %p", info.si_addr);
	r = faults(NULL, 0);
	tap_ok(r && info.si_addr == NULL, "NULL read: caught, si_addr NULL");
	sigprocmask(SIG_BLOCK, NULL, &cur);
	tap_ok(!sigismember(&cur, SIGSEGV), "siglongjmp restored the mask: "
	       "SIGSEGV not blocked");

	st = in_child(fault_exit, gone);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 33,
	       "a SIGSEGV handler may _exit (%s)", status_str(st));
	st = in_child(fault_blocked, gone);
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
	       "a fault while SIGSEGV is blocked kills (%s)", status_str(st));
	st = in_child(fault_ignored, gone);
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
	       "a fault while SIGSEGV is ignored kills (%s)", status_str(st));
	signal(SIGSEGV, SIG_DFL);

	/* A handler that returns: the signal is delivered before kill()
	 * returns, with itself and sa_mask blocked, and rt_sigreturn puts
	 * everything back. */
	handle(SIGUSR1, on_usr1, 1);
	got = 0;
	kill(getpid(), SIGUSR1);
	tap_ok(got == 1 && got_sig == SIGUSR1, "kill(self, SIGUSR1) runs the "
	       "handler before kill returns");
	tap_ok(info.si_code == SI_USER && info.si_pid == getpid(),
	       "si_code SI_USER, si_pid is us (%d)", info.si_pid);
	tap_ok(self_blocked && usr2_blocked, "in the handler SIGUSR1 and "
	       "sa_mask's SIGUSR2 are blocked");
	sigprocmask(SIG_BLOCK, NULL, &cur);
	tap_ok(!sigismember(&cur, SIGUSR1) && !sigismember(&cur, SIGUSR2),
	       "after the handler returns neither is blocked");

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	got = 0;
	kill(getpid(), SIGUSR1);
	kill(getpid(), SIGUSR1);
	tap_ok(got == 0, "a blocked signal is held");
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	tap_ok(got == 1, "unblocking delivers it once (%d)", got);

	sigaction(SIGUSR1, NULL, &old);
	tap_ok((old.sa_flags & SA_SIGINFO) && old.sa_sigaction == on_usr1,
	       "sigaction reports the installed handler");
	signal(SIGUSR2, SIG_IGN);
	tap_ok(kill(getpid(), SIGUSR2) == 0, "an ignored signal does nothing");
	signal(SIGUSR2, SIG_DFL);
	r = sigaction(SIGKILL, &old, NULL);
	err = errno;
	tap_ok(r == -1 && err == EINVAL, "sigaction(SIGKILL): EINVAL (%s)",
	       strerror(err));
	r = kill(getpid(), 1000);
	err = errno;
	tap_ok(r == -1 && err == EINVAL, "kill with signal 1000: EINVAL (%s)",
	       strerror(err));
	r = kill(0x3ffffff0, 0);
	err = errno;
	tap_ok(r == -1 && err == ESRCH, "kill of a pid that does not exist: "
	       "ESRCH (%s)", strerror(err));

	/* kill() a child with the default action. */
	pid = fork();
	if (pid == 0) {
		for (;;)
			sleep_ms(1000);
	}
	kill(pid, SIGTERM);
	waitpid(pid, &st, 0);
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM,
	       "kill(child, SIGTERM) ends it (%s)", status_str(st));

	st = interrupted(sleep_nanosleep);
	tap_ok(st == 0, "a child's handler runs, nanosleep gives EINTR, "
	       "si_pid is the sender (%s)", status_str(st));
	st = interrupted(sleep_pause);
	tap_ok(st == 0, "pause() returns EINTR once a handler has run (%s)",
	       status_str(st));

	st = group_kill();
	tap_ok(st == 0, "kill(-pgid) of a child's own group ends it, and "
	       "only it (%s)", status_str(st));

	/* SIGCHLD arrives when a child exits. */
	handle(SIGCHLD, on_usr1, 0);
	got = 0;
	pid = fork();
	if (pid == 0)
		_exit(5);
	for (i = 0; i < 500 && !got; i++)
		sleep_ms(10);
	tap_ok(got == 1 && got_sig == SIGCHLD, "SIGCHLD arrives (after about "
	       "%d ms)", i * 10);
	tap_ok(info.si_pid == pid && info.si_code == CLD_EXITED &&
	       info.si_status == 5, "si_pid is the child, CLD_EXITED, "
	       "si_status 5");
	r = waitpid(pid, &st, 0);
	tap_ok(r == pid && WIFEXITED(st) && WEXITSTATUS(st) == 5,
	       "the child is still there to be reaped (%s)", status_str(st));
	signal(SIGCHLD, SIG_DFL);
	/* SIGCHLD's default is to ignore: nothing happens. */
	pid = fork();
	if (pid == 0)
		_exit(0);
	waitpid(pid, &st, 0);
	tap_ok(st == 0, "with SIGCHLD at SIG_DFL the parent is unaffected");
	tap_done();
}
