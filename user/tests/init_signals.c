/* user/tests/init_signals.c — init cannot be killed: a clone(SIGBUS) child
 * orphaned to init signals SIGCHLD there, not SIGBUS; and on zpk, where the
 * runner is init, signals init does not handle (SIGKILL too) are dropped. */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

/*
 * A middle child clones a grandchild with exit signal sig and exits; the
 * grandchild, now init's, waits to be orphaned and exits, which sends its
 * exit signal to init. Returns once the grandchild is gone (its end of
 * the pipe closed), so that init has been told.
 */
static int orphan_with_exit_signal(int sig)
{
	int pfd[2], status;
	pid_t mid;
	char c;

	if (pipe(pfd) < 0)
		return 0;
	mid = fork();
	if (mid == 0) {
		pid_t self = getpid();	/* mid is 0 in this copy */
		long g = syscall(SYS_clone, (unsigned long)sig, 0, 0, 0, 0);

		if (g == 0) {
			close(pfd[0]);
			while (getppid() == self)
				sched_yield();
			_exit(0);	/* sig goes to init now */
		}
		_exit(g > 0 ? 0 : 1);
	}
	close(pfd[1]);
	if (mid < 0 || waitpid(mid, &status, 0) != mid) {
		close(pfd[0]);
		return 0;
	}
	while (read(pfd[0], &c, 1) > 0)
		;
	close(pfd[0]);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int main(void)
{
	static const int sigs[] = { SIGBUS, SIGKILL, SIGSEGV, SIGTERM };

	tap_plan(6);
	for (unsigned i = 0; i < 4; i++)
		tap_ok(orphan_with_exit_signal(sigs[i]),
		       "an orphan with exit signal %d (%s) ends; init lives on",
		       sigs[i], strsignal(sigs[i]));
	if (!is_zpk()) {
		tap_skip("signals to pid 1: zpk-only (this init is the host's)");
		tap_skip("init still answers: zpk-only");
		tap_done();
	}
	/* The runner (init) handles none of these: all must be dropped. */
	tap_ok(kill(1, SIGUSR2) == 0 && kill(1, SIGTERM) == 0 &&
	       kill(1, SIGKILL) == 0 && kill(1, SIGSEGV) == 0,
	       "kill(1, SIGUSR2/SIGTERM/SIGKILL/SIGSEGV) returns 0");
	sched_yield();
	tap_ok(kill(1, 0) == 0 && getppid() == 1,
	       "init is still there after the signals");
	tap_done();
}
