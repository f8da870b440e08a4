/* user/tests/sysfs.c — /sys as Linux's sysfs: its own mount and magic,
 * /sys/devices/system/cpu (the masks in Linux's list format, agreeing
 * with the CPUs the process may use, a cpuN directory per possible
 * CPU), and what it refuses: a write open of a read-only value
 * (EACCES), removing or adding names (EPERM). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "ulib.h"

#define SYSFS_MAGIC	0x62656572	/* <linux/magic.h>'s */
#define CPU		"/sys/devices/system/cpu/"

/* A list like "0-3,6\n" as a mask; -1 if it is not one. */
static long parse_list(const char *s)
{
	long mask = 0;
	char *end;

	if (*s == '\n')
		return 0;
	for (;;) {
		long a = strtol(s, &end, 10), b = a;

		if (end == s || a < 0 || a > 62)
			return -1;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a || b > 62)
				return -1;
		}
		for (long c = a; c <= b; c++)
			mask |= 1L << c;
		if (*end == '\n')
			return end[1] ? -1 : mask;
		if (*end != ',')
			return -1;
		s = end + 1;
	}
}

static long read_list(const char *name)
{
	char path[64], buf[256];

	snprintf(path, sizeof(path), CPU "%s", name);
	return read_file(path, buf, sizeof(buf)) > 0 ? parse_list(buf) : -1;
}

/* The cpuN directories, as a mask. */
static long cpu_dirs(void)
{
	DIR *d = opendir(CPU);
	struct dirent *e;
	long mask = 0;

	while (d && (e = readdir(d))) {
		char *end;
		long n;

		if (strncmp(e->d_name, "cpu", 3))
			continue;
		n = strtol(e->d_name + 3, &end, 10);
		if (end != e->d_name + 3 && !*end && n < 63)
			mask |= 1L << n;
	}
	if (d)
		closedir(d);
	return mask;
}

int main(void)
{
	long online = read_list("online"), possible = read_list("possible");
	char buf[4096];
	struct statfs sf;
	cpu_set_t set;
	int fd, e, max;

	need_proc();
	tap_plan(9);
	if (statfs("/sys", &sf))
		sf.f_type = 0;
	tap_ok(sf.f_type == SYSFS_MAGIC, "/sys is sysfs (f_type %#lx)",
	       (long)sf.f_type);
	/* the options are the mount's: Linux's boot mounts it nosuid,
	 * nodev, noexec, a container maybe not */
	tap_ok(read_file("/proc/self/mounts", buf, sizeof(buf)) > 0 &&
	       strstr(buf, "\nsysfs /sys sysfs rw,") && (!is_zpk() ||
	       strstr(buf, "\nsysfs /sys sysfs rw,nosuid,nodev,noexec,")),
	       "mounts lists it");
	sched_getaffinity(0, sizeof(set), &set);
	tap_ok(online > 0 && (online & possible) == online &&
	       __builtin_popcountl(online) >= CPU_COUNT(&set), "online (%#lx) "
	       "lies in possible (%#lx) and holds the %d CPUs we may use",
	       online, possible, CPU_COUNT(&set));
	tap_ok(read_list("offline") == (possible & ~online) &&
	       read_list("present") >= 0, "offline is possible but not online, "
	       "present reads as a list");
	tap_ok((cpu_dirs() & possible) == possible, "a cpuN directory for every "
	       "possible CPU (%#lx)", cpu_dirs());
	max = read_file(CPU "kernel_max", buf, sizeof(buf)) > 0 ? atoi(buf) : -1;
	tap_ok(max >= 63 - __builtin_clzl(possible),
	       "kernel_max (%d) covers them", max);
	fd = open(CPU "online", O_WRONLY);
	e = errno;
	tap_ok(fd < 0 && e == EACCES, "a write open of a read-only value: "
	       "EACCES (%s)", fd < 0 ? strerror(e) : "opened");
	fd = unlink(CPU "online");
	e = errno;
	tap_ok(fd < 0 && e == EPERM, "unlink of a value: EPERM (%s)",
	       fd < 0 ? strerror(e) : "removed");
	fd = mkdir(CPU "zpk-new", 0755);
	e = errno;
	tap_ok(fd < 0 && e == EPERM, "mkdir: EPERM (%s)",
	       fd < 0 ? strerror(e) : "made");
	tap_done();
}
