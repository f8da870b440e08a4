/* user/tests/sigsuspend.c — rt_sigsuspend and pause: they wait for a
 * handled signal, the handler runs under sigsuspend's mask, and the
 * caller's mask is back afterwards (busybox ash's wait needs this). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

static volatile int handled;
static volatile int usr2_blocked_inside;

static void on_usr1(int sig)
{
	sigset_t now;

	(void)sig;
	handled++;
	sigprocmask(SIG_BLOCK, NULL, &now);
	usr2_blocked_inside = sigismember(&now, SIGUSR2);
}

/* A child that sends sig to us after 100 ms. */
static pid_t signal_later(int sig)
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0) {
		usleep(100000);
		kill(parent, sig);
		_exit(0);
	}
	return pid;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	sigset_t block, wait_mask, after;
	long r;
	int err;
	pid_t pid;

	tap_plan(8);
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, NULL);

	/* Wait with SIGUSR1 let through and SIGUSR2 held. */
	sigemptyset(&wait_mask);
	sigaddset(&wait_mask, SIGUSR2);
	pid = signal_later(SIGUSR1);
	errno = 0;
	r = sigsuspend(&wait_mask);
	err = errno;
	waitpid(pid, NULL, 0);
	tap_ok(r == -1 && err == EINTR, "sigsuspend returns EINTR (%s)",
	       strerror(err));
	tap_ok(handled == 1, "the handler ran once (%d)", handled);
	tap_ok(usr2_blocked_inside,
	       "the handler ran under sigsuspend's mask (SIGUSR2 blocked)");
	sigprocmask(SIG_BLOCK, NULL, &after);
	tap_ok(sigismember(&after, SIGUSR1) && !sigismember(&after, SIGUSR2),
	       "afterwards the caller's mask is back");

	/* A signal already pending: sigsuspend returns at once. */
	kill(getpid(), SIGUSR1);
	sigemptyset(&wait_mask);
	tap_ok(sigsuspend(&wait_mask) == -1 && handled == 2,
	       "a pending signal ends sigsuspend at once");

	sigprocmask(SIG_UNBLOCK, &block, NULL);
	pid = signal_later(SIGUSR1);
	errno = 0;
	r = pause();
	err = errno;
	waitpid(pid, NULL, 0);
	tap_ok(r == -1 && err == EINTR && handled == 3,
	       "pause waits for a handled signal (%s)", strerror(err));

	tap_fails(syscall(SYS_rt_sigsuspend, &wait_mask, 4), EINVAL,
		  "rt_sigsuspend with a 4-byte set");
	tap_fails(syscall(SYS_rt_sigsuspend, (void *)8, 8), EFAULT,
		  "rt_sigsuspend of a bad pointer");
	tap_done();
}
