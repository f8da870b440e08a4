/* user/tests/syslog.c — the kernel log through syslog(2) (klogctl, what
 * dmesg reads): its size, Linux's "<level>[seconds.micros] text" lines,
 * whole lines only, a segfault report landing in it, CLEAR. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

static char buf[1 << 20];

/* Every line of buf[0..n) looks like "<6>[    0.000000] text". */
static int lines_ok(long n)
{
	for (long i = 0; i < n; i++) {
		int level;
		unsigned long sec, usec;
		char c;

		if (sscanf(buf + i, "<%d>[%lu.%6lu%c", &level, &sec, &usec,
			   &c) != 4 || c != ']' || level < 0 || level > 7)
			return 0;
		while (i < n && buf[i] != '\n')
			i++;
	}
	return n > 0 && buf[n - 1] == '\n';
}

int main(void)
{
	long size, n;
	pid_t pid;

	tap_plan(7);
	size = klogctl(10, NULL, 0);
	tap_ok(size >= 16384 && (size & (size - 1)) == 0,
	       "SIZE_BUFFER: a power of two, at least 16 KiB (%ld)", size);
	n = klogctl(3, buf, sizeof(buf));
	tap_ok(n > 0 && lines_ok(n),
	       "READ_ALL: %ld bytes of \"<L>[s.us] text\" lines", n);
	n = klogctl(3, buf, 200);
	tap_ok(n >= 0 && n <= 200 && (n == 0 || lines_ok(n)),
	       "READ_ALL into 200 bytes: the last lines that fit whole (%ld)",
	       n);
	pid = fork();
	if (pid == 0)
		*(volatile int *)0 = 1;
	waitpid(pid, NULL, 0);
	n = klogctl(3, buf, sizeof(buf));
	buf[n > 0 ? n : 0] = '\0';
	tap_ok(strstr(buf, "segfault at 0") != NULL,
	       "a child's segfault report is in the log");
	tap_fails(klogctl(99, buf, 10), EINVAL, "type 99");
	tap_fails(klogctl(3, buf, -1), EINVAL, "READ_ALL of -1 bytes");
	if (is_zpk())
		tap_ok(klogctl(5, NULL, 0) == 0 && klogctl(9, NULL, 0) == 0 &&
		       klogctl(3, buf, sizeof(buf)) == 0,
		       "zpk: CLEAR empties what READ_ALL gives");
	else
		tap_skip("CLEAR would empty the host's log");
	tap_done();
}
