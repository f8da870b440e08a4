/* user/tests/pid_max.c — /proc/sys/kernel/pid_max and running out of pids:
 * with every pid held by zombies fork fails with EAGAIN (no hang), the
 * pids wrap below pid_max, and once they are reaped fork works again. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define PID_MAX_PATH	"/proc/sys/kernel/pid_max"
#define LOW_MAX		400
#define MAX_KIDS	(LOW_MAX + 16)

static pid_t kids[MAX_KIDS];


int main(void)
{
	char buf[32], old[32];
	int n = 0, err = 0, bad = 0, status;
	long max;
	pid_t p;

	need_proc();
	tap_plan(8);
	max = read_file(PID_MAX_PATH, old, sizeof(old)) > 0 ? atol(old) : -1;
	tap_ok(max > 300 && max <= 4194304, "pid_max reads %ld", max);
	if (!is_zpk()) {
		/* Never write the host's pid_max. */
		for (int i = 0; i < 7; i++)
			tap_skip("writing pid_max: zpk-only (the host's is shared)");
		tap_done();
	}
	tap_ok(write_file(PID_MAX_PATH, "300\n") == EINVAL &&
	       write_file(PID_MAX_PATH, "4194305\n") == EINVAL &&
	       write_file(PID_MAX_PATH, "x\n") == EINVAL,
	       "300, 4194305 and x are EINVAL, as Linux's bounds");
	snprintf(buf, sizeof(buf), "%d\n", LOW_MAX);
	tap_ok(write_file(PID_MAX_PATH, buf) == 0 &&
	       read_file(PID_MAX_PATH, buf, sizeof(buf)) > 0 &&
	       atol(buf) == LOW_MAX, "pid_max set to %d", LOW_MAX);

	/* Zombies until fork says no: each holds its pid. */
	while (n < MAX_KIDS) {
		p = fork();
		if (p == 0)
			_exit(0);
		if (p < 0) {
			err = errno;
			break;
		}
		bad += p >= LOW_MAX;
		kids[n++] = p;
	}
	tap_ok(err == EAGAIN, "fork fails with EAGAIN after %d zombies (%s)",
	       n, strerror(err));
	tap_ok(n > 0 && !bad, "every new pid is below pid_max (%d above)", bad);
	for (int i = 0; i < n; i++)
		waitpid(kids[i], &status, 0);
	p = fork();
	if (p == 0)
		_exit(7);
	tap_ok(p > 0 && p < LOW_MAX && waitpid(p, &status, 0) == p &&
	       WIFEXITED(status) && WEXITSTATUS(status) == 7,
	       "once reaped, fork works again (pid %d)", p);
	tap_ok(p >= 300, "allocation wrapped to RESERVED_PIDS (300), not to 1");
	tap_ok(write_file(PID_MAX_PATH, old) == 0, "pid_max restored to %ld", max);
	tap_done();
}
