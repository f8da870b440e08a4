/* user/tests/priority.c — nice values: getpriority, setpriority (clamped
 * to -20..19) of a process or a process group, inherited by fork, shown
 * in /proc/PID/stat's priority and nice fields; CPU affinity masks;
 * Linux's errnos. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

/* Fields 18 and 19 of /proc/self/stat: priority and nice. */
static int stat_prio(long *prio, long *nice)
{
	char buf[1024], *p;

	if (read_file("/proc/self/stat", buf, sizeof(buf)) <= 0)
		return 0;
	p = strrchr(buf, ')');
	return p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u "
			   "%*u %*u %*u %*d %*d %ld %ld", prio, nice) == 2;
}

int main(void)
{
	long prio = 0, nice = 0, ncpu;
	int status, r;
	pid_t pid;
	cpu_set_t set, none;

	tap_plan(17);
	errno = 0;
	tap_ok(getpriority(PRIO_PROCESS, 0) == 0 && errno == 0,
	       "a new process's nice value is 0");
	tap_ok(setpriority(PRIO_PROCESS, 0, 5) == 0 &&
	       getpriority(PRIO_PROCESS, 0) == 5, "setpriority 5");
	tap_ok(stat_prio(&prio, &nice) && prio == 25 && nice == 5,
	       "/proc/self/stat: priority 25, nice 5 (%ld %ld)", prio, nice);
	pid = fork();
	if (pid == 0)
		_exit(getpriority(PRIO_PROCESS, 0) == 5 ? 0 : 1);
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "a fork child has it too");
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		_exit(setpriority(PRIO_PGRP, 0, 9) == 0 &&
		      getpriority(PRIO_PROCESS, 0) == 9 &&
		      getpriority(PRIO_PGRP, getpgrp()) == 9 ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
	       getpriority(PRIO_PROCESS, 0) == 5,
	       "PRIO_PGRP: a child's own process group gets 9, the parent "
	       "outside it keeps 5");
	tap_ok(setpriority(PRIO_PROCESS, getpid(), 100) == 0 &&
	       getpriority(PRIO_PROCESS, getpid()) == 19,
	       "100 is clamped to 19");
	tap_fails(setpriority(PRIO_PROCESS, 0x7ffffff0, 1), ESRCH,
		  "setpriority of no process");
	tap_fails(getpriority(7, 0), EINVAL, "getpriority which 7");
	tap_fails(setpriority(PRIO_PROCESS, -1, 1), ESRCH,
		  "setpriority of who -1");

	CPU_ZERO(&set);
	r = sched_getaffinity(0, sizeof(set), &set);
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	tap_ok(r == 0 && CPU_COUNT(&set) >= 1 && CPU_COUNT(&set) <= ncpu &&
	       (!is_zpk() || CPU_COUNT(&set) == ncpu),
	       "sched_getaffinity: %d of the %ld CPUs online (zpk: all)",
	       CPU_COUNT(&set), ncpu);
	tap_ok(sched_setaffinity(0, sizeof(set), &set) == 0,
	       "sched_setaffinity of that same mask");
	CPU_ZERO(&none);
	tap_fails(sched_setaffinity(0, sizeof(none), &none), EINVAL,
		  "an empty mask");
	tap_fails(sched_getaffinity(0x7ffffff0, sizeof(set), &set), ESRCH,
		  "the mask of no process");

	/* I/O priorities: IOPRIO_WHO_PROCESS 1, class << 13 | data. */
	tap_ok(syscall(SYS_ioprio_get, 1, 0) == 0,
	       "ioprio_get: none set (class NONE, 0)");
	tap_ok(syscall(SYS_ioprio_set, 1, 0, 2 << 13 | 6) == 0 &&
	       syscall(SYS_ioprio_get, 1, getpid()) == (2 << 13 | 6),
	       "ioprio_set best-effort 6, read back");
	tap_fails(syscall(SYS_ioprio_set, 1, 0, 5 << 13), EINVAL, "class 5");
	tap_fails(syscall(SYS_ioprio_set, 1, 0, 3), EINVAL,
		  "class NONE with data 3");
	tap_done();
}
