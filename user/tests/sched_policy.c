/* user/tests/sched_policy.c — the scheduling-policy calls: every task
 * is SCHED_OTHER with priority 0, the priority ranges of each policy,
 * and Linux's errnos in Linux's order. A real-time class, which zpk
 * lacks, is EPERM there (Linux gives it to root). */
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ulib.h"

static void check_err(long r, int err, const char *what)
{
	int e = errno;

	tap_ok(r == -1 && e == err, "%s: %s (%s)", what, strerror(err),
	       r == -1 ? strerror(e) : "no error");
}

int main(void)
{
	struct sched_param p = { .sched_priority = 7 };
	long r;

	tap_plan(12);
	r = syscall(SYS_sched_getscheduler, 0);
	tap_ok(r == SCHED_OTHER, "sched_getscheduler: SCHED_OTHER (%ld)", r);
	r = syscall(SYS_sched_getparam, 0, &p);
	tap_ok(r == 0 && p.sched_priority == 0, "sched_getparam: priority 0");
	tap_ok(syscall(SYS_sched_get_priority_max, SCHED_FIFO) == 99 &&
	       syscall(SYS_sched_get_priority_min, SCHED_RR) == 1,
	       "SCHED_FIFO and SCHED_RR: 1 to 99");
	tap_ok(syscall(SYS_sched_get_priority_max, SCHED_OTHER) == 0 &&
	       syscall(SYS_sched_get_priority_min, SCHED_BATCH) == 0,
	       "SCHED_OTHER and SCHED_BATCH: 0");
	check_err(syscall(SYS_sched_get_priority_max, 42), EINVAL,
		  "the range of policy 42");
	p.sched_priority = 0;
	r = syscall(SYS_sched_setscheduler, 0, SCHED_OTHER, &p);
	tap_ok(r == 0, "sched_setscheduler(SCHED_OTHER, 0)");
	p.sched_priority = 5;
	check_err(syscall(SYS_sched_setscheduler, 0, SCHED_OTHER, &p), EINVAL,
		  "SCHED_OTHER with priority 5");
	check_err(syscall(SYS_sched_setscheduler, -1, SCHED_OTHER, &p), EINVAL,
		  "pid -1");
	check_err(syscall(SYS_sched_setscheduler, 0, SCHED_OTHER, NULL),
		  EINVAL, "no param");
	check_err(syscall(SYS_sched_setscheduler, 0, SCHED_OTHER, (void *)8),
		  EFAULT, "a bad param");
	check_err(syscall(SYS_sched_getscheduler, 0x3ffffff0), ESRCH,
		  "no such pid");
	r = syscall(SYS_sched_setscheduler, 0, SCHED_FIFO, &p);
	if (r == 0) {	/* Linux, as root: put it back */
		p.sched_priority = 0;
		syscall(SYS_sched_setscheduler, 0, SCHED_OTHER, &p);
	}
	tap_ok(is_zpk() ? r == -1 && errno == EPERM : r == 0 || errno == EPERM,
	       "SCHED_FIFO 5: %s", is_zpk() ? "EPERM, zpk has no real-time "
	       "class" : "as this Linux allows");
	tap_done();
}
