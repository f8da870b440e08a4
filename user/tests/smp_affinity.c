/* user/tests/smp_affinity.c — sched_setaffinity moves the caller: pinned
 * to each CPU in turn, getcpu names that CPU; a fork child inherits the
 * mask; Linux's errnos for an empty mask, a bad pointer, no such pid. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

static unsigned int this_cpu(void)
{
	unsigned int cpu = ~0u;

	syscall(SYS_getcpu, &cpu, NULL, NULL);
	return cpu;
}

static int set_raw(pid_t pid, size_t len, const void *mask)
{
	return syscall(SYS_sched_setaffinity, pid, len, mask) < 0 ? -errno : 0;
}

/* Pinned to each CPU of all, the caller runs there once the call returns
 * (and stays there after a yield); how many CPUs that held for. */
static int pin_to_each(const cpu_set_t *all)
{
	int ok = 0;

	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		cpu_set_t one;

		if (!CPU_ISSET(cpu, all))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			continue;
		if (this_cpu() != (unsigned)cpu)
			continue;
		sched_yield();
		ok += this_cpu() == (unsigned)cpu;
	}
	return ok;
}

/* A child pinned by inheritance reports the CPU it runs on. */
static int child_cpu(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit((int)this_cpu());
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int main(void)
{
	cpu_set_t all, got, none, last;
	unsigned long bad = 1UL << 63;
	int n, cpus;

	tap_plan(7);
	if (sched_getaffinity(0, sizeof(all), &all)) {
		tap_note("sched_getaffinity: %s", strerror(errno));
		return 1;
	}
	cpus = CPU_COUNT(&all);
	n = pin_to_each(&all);
	tap_ok(n == cpus, "pinned to each of the %d CPUs in turn, getcpu "
	       "names it, before and after a yield (%d)", cpus, n);
	CPU_ZERO(&last);
	for (int cpu = CPU_SETSIZE - 1; cpu >= 0; cpu--)
		if (CPU_ISSET(cpu, &all)) {
			CPU_SET(cpu, &last);
			break;
		}
	sched_setaffinity(0, sizeof(last), &last);
	tap_ok(sched_getaffinity(0, sizeof(got), &got) == 0 &&
	       CPU_EQUAL(&got, &last), "sched_getaffinity gives the mask set");
	n = child_cpu();
	tap_ok(n >= 0 && CPU_ISSET(n, &last), "a fork child inherits the "
	       "mask: it runs on CPU %d", n);
	CPU_ZERO(&none);
	tap_ok(set_raw(0, sizeof(none), &none) == -EINVAL &&
	       set_raw(0, sizeof(bad), &bad) == -EINVAL,
	       "an empty mask, or one of no CPU there is, is EINVAL");
	tap_ok(set_raw(0, sizeof(all), (void *)8) == -EFAULT,
	       "a bad pointer is EFAULT");
	tap_ok(set_raw(999999, sizeof(all), &all) == -ESRCH,
	       "no such pid is ESRCH");
	tap_ok(sched_setaffinity(0, sizeof(all), &all) == 0 &&
	       sched_getaffinity(0, sizeof(got), &got) == 0 &&
	       CPU_EQUAL(&got, &all), "every CPU allowed again");
	tap_done();
}
