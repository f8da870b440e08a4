/* user/tests/proc_stat.c — /proc/stat in Linux's layout: the cpu lines
 * (user time grows while we spin), intr, ctxt, btime, processes (+1 per
 * fork), procs_running, procs_blocked, softirq; /proc/self/stat utime. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ulib.h"

static char text[65536];

/* The line of /proc/stat starting with key and a blank, or NULL. */
static const char *line_of(const char *key)
{
	size_t n = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p += !!p)
		if (!strncmp(p, key, n) && p[n] == ' ')
			return p + n;
	return NULL;
}

/* How many numbers follow on the line at p; their sum in *sum, the
 * first in *first. */
static int numbers(const char *p, unsigned long long *first,
		   unsigned long long *sum)
{
	int n = 0;

	*sum = 0;
	while (p && *p == ' ') {
		char *end;
		unsigned long long v = strtoull(p, &end, 10);

		if (end == p + 1 || (*end != ' ' && *end != '\n'))
			return -1;
		if (n++ == 0)
			*first = v;
		*sum += v;
		p = end;
	}
	return p && *p == '\n' ? n : -1;
}

static unsigned long long field(const char *key)
{
	unsigned long long first = 0, sum;

	if (!line_of(key) || numbers(line_of(key), &first, &sum) != 1)
		return (unsigned long long)-1;
	return first;
}

/* The cpu line's fourth figure, idle, as Linux prints it. */
static unsigned long long idle_ticks(void)
{
	unsigned long long v[4] = { 0 };

	sscanf(text, "cpu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3]);
	return v[3];
}

/* "L.LL L.LL L.LL R/T LAST": R at least 1 (us), R <= T, LAST >= pid. */
static int loadavg_ok(pid_t pid)
{
	char buf[128];
	int l[6], r, t, last, n;

	if (read_file("/proc/loadavg", buf, sizeof(buf)) <= 0)
		return 0;
	n = sscanf(buf, "%d.%2d %d.%2d %d.%2d %d/%d %d", &l[0], &l[1], &l[2],
		   &l[3], &l[4], &l[5], &r, &t, &last);
	return n == 9 && r >= 1 && r <= t && last >= pid;
}

static int reread(void)
{
	return read_file("/proc/stat", text, sizeof(text)) > 0;
}

/* Spins in user mode for ms milliseconds of wall time. */
static void spin(int ms)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000
	       < ms);
}

/* utime of /proc/self/stat (field 14), in ticks. */
static long self_utime(void)
{
	char buf[1024], *p;
	long v = -1;

	if (read_file("/proc/self/stat", buf, sizeof(buf)) <= 0)
		return -1;
	p = strrchr(buf, ')');
	if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
			"%ld", &v) != 1)
		v = -1;
	return v;
}

int main(void)
{
	unsigned long long user0, sum, first, procs, ctxt, intr, total;
	long utime0;
	time_t now = time(NULL);
	int n, status;
	pid_t pid;

	tap_plan(16);
	need_proc();
	if (!tap_ok(reread(), "read /proc/stat"))
		tap_done();
	tap_ok(!strncmp(text, "cpu  ", 5) && numbers(text + 4, &first, &sum)
	       == 10, "the first line: \"cpu \" and 10 figures");
	n = line_of("cpu0") ? numbers(line_of("cpu0"), &first, &sum) : -1;
	tap_ok(n == 10, "a cpu0 line with 10 figures (%d)", n);
	n = line_of("intr") ? numbers(line_of("intr"), &intr, &sum) : -1;
	/* Linux's total also counts interrupts it lists nowhere else. */
	tap_ok(n >= 2 && sum - intr <= intr,
	       "intr: the total, then one count per interrupt (%d figures)", n);
	ctxt = field("ctxt");
	tap_ok(ctxt != (unsigned long long)-1 && ctxt > 0, "ctxt %llu", ctxt);
	first = field("btime");
	tap_ok(first > 1000000000ULL && first <= (unsigned long long)now,
	       "btime: a date before now (%llu, now %lld)", first,
	       (long long)now);
	procs = field("processes");
	tap_ok(procs != (unsigned long long)-1, "processes %llu", procs);
	first = field("procs_running");
	tap_ok(first >= 1 && first < 1000, "procs_running %llu (us)", first);
	tap_ok(field("procs_blocked") < 1000, "procs_blocked %llu",
	       field("procs_blocked"));
	n = line_of("softirq") ? numbers(line_of("softirq"), &first, &sum) : -1;
	tap_ok(n == 11, "softirq: the total and 10 kinds (%d)", n);

	numbers(text + 4, &user0, &total);
	utime0 = self_utime();
	spin(300);
	pid = fork();
	if (pid == 0)
		_exit(0);
	waitpid(pid, &status, 0);
	reread();
	numbers(text + 4, &first, &sum);
	tap_ok(first > user0, "300 ms spinning: cpu user %llu -> %llu ticks",
	       user0, first);
	/* Under a loaded host, QEMU may deliver fewer ticks than the wall
	 * time passed: only their direction is checked. */
	tap_ok(sum > total, "all cpu time moved on: %llu -> %llu", total,
	       sum);
	tap_ok(self_utime() > utime0, "our utime: %ld -> %ld ticks", utime0,
	       self_utime());
	if (is_zpk()) {
		unsigned long long idle0 = idle_ticks(), user1;

		numbers(text + 4, &user1, &sum);
		usleep(300000);
		reread();
		numbers(text + 4, &first, &sum);
		tap_ok(idle_ticks() > idle0 &&
		       idle_ticks() - idle0 > first - user1,
		       "zpk: 300 ms asleep is idle time (4th figure): "
		       "%llu -> %llu (user +%llu)", idle0, idle_ticks(),
		       first - user1);
	} else {
		tap_skip("the host's other work may leave it no idle time");
	}
	tap_ok(loadavg_ok(pid), "/proc/loadavg: three loads, running/all, "
	       "a last pid at least our child's (%d)", pid);
	tap_ok(field("processes") >= procs + 1 && field("ctxt") > ctxt,
	       "a fork: processes %llu -> %llu, ctxt %llu -> %llu", procs,
	       field("processes"), ctxt, field("ctxt"));
	tap_done();
}
