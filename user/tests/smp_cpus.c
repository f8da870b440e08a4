/* user/tests/smp_cpus.c — how many CPUs a program sees: sched_getaffinity
 * (what nproc counts) against /proc/cpuinfo's blocks, its errnos as
 * Linux's, and getcpu naming one of those CPUs. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ulib.h"

/* "processor : N" lines, or -1 if /proc/cpuinfo cannot be read. */
static int cpuinfo_processors(void)
{
	static char buf[65536];
	int n = 0;

	if (read_file("/proc/cpuinfo", buf, sizeof(buf)) <= 0)
		return -1;
	for (char *p = buf; (p = strstr(p, "processor\t: ")); p++)
		if (p == buf || p[-1] == '\n')
			n++;
	return n;
}

/* The raw system call: it returns the size of the kernel's mask. */
static long getaffinity(pid_t pid, size_t len, void *mask)
{
	long r = syscall(SYS_sched_getaffinity, pid, len, mask);

	return r < 0 ? -errno : r;
}

int main(void)
{
	unsigned long mask[16];
	unsigned int cpu = ~0u, node = ~0u;
	cpu_set_t set;
	int procs, count;
	long size, ret;

	need_proc();
	tap_plan(8);
	size = getaffinity(0, sizeof(mask), mask);
	tap_ok(size > 0 && size % sizeof(long) == 0 &&
	       size <= (long)sizeof(mask),
	       "sched_getaffinity returns its mask's size, %ld bytes (Linux: "
	       "cpumask_size(), by configuration)", size);
	tap_ok(getaffinity(0, sizeof(long), mask) == sizeof(long),
	       "one long holds every CPU: 8 bytes copied");
	CPU_ZERO(&set);
	tap_ok(sched_getaffinity(0, sizeof(set), &set) == 0,
	       "musl's sched_getaffinity succeeds");
	count = CPU_COUNT(&set);
	procs = cpuinfo_processors();
	tap_ok(count >= 1 && count <= procs && count == sysconf(
		       _SC_NPROCESSORS_ONLN),
	       "%d CPUs in the mask (nproc), %d in /proc/cpuinfo, sysconf "
	       "agrees", count, procs);
	tap_ok(getaffinity(0, 4, mask) == -EINVAL &&
	       getaffinity(0, 0, mask) == -EINVAL,
	       "a length that is not a multiple of a long is EINVAL");
	tap_ok(getaffinity(0, sizeof(long), (void *)8) == -EFAULT,
	       "a bad pointer is EFAULT");
	tap_ok(getaffinity(999999, sizeof(mask), mask) == -ESRCH,
	       "no such pid is ESRCH");
	ret = syscall(SYS_getcpu, &cpu, &node, NULL);
	tap_ok(ret == 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &set) &&
	       node == 0, "getcpu: CPU %u (in the mask), node %u", cpu, node);
	tap_done();
}
