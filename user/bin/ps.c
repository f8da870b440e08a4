/* user/bin/ps.c — ps: every process in /proc, one line each, like procps
 * ps -o pid,ppid,s,rss,min_flt,cmd; RSS in kB from /proc/PID/status. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procfs.h"

static int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* The command line with its NULs as spaces, or [comm] when it is empty
 * (kernel threads, zombies), as procps shows them. */
static void cmd_of(int pid, const char *comm, char *out, size_t n)
{
	char path[64], *t;
	size_t len = 0, i;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	t = proc_read(path, &len);
	if (!t || len == 0) {
		snprintf(out, n, "[%s]", comm);
		free(t);
		return;
	}
	for (i = 0; i + 1 < len; i++)
		if (t[i] == '\0')
			t[i] = ' ';
	snprintf(out, n, "%s", t);
	free(t);
}

static void show(int pid)
{
	struct proc_stat st;
	char path[64], cmd[256];
	long long rss;

	/* A process may exit between readdir and here: skip it quietly. */
	if (proc_stat_read(pid, &st) < 0)
		return;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	rss = proc_kb(path, "VmRSS");
	cmd_of(pid, st.comm, cmd, sizeof(cmd));
	printf("%7d %7d %c %9lld %9lu %s\n", st.pid, st.ppid, st.state,
	       rss < 0 ? 0 : rss, st.minflt, cmd);
}

int main(void)
{
	int *pids = NULL, n = 0, cap = 0, i;
	struct dirent *de;
	DIR *d;

	d = opendir("/proc");
	if (!d) {
		fprintf(stderr, "ps: cannot open /proc: %s (is /proc "
			"there on this kernel?)\n", strerror(errno));
		return 1;
	}
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			pids = realloc(pids, cap * sizeof(*pids));
			if (!pids) {
				fprintf(stderr, "ps: out of memory\n");
				return 1;
			}
		}
		pids[n++] = atoi(de->d_name);
	}
	closedir(d);
	qsort(pids, n, sizeof(*pids), cmp);
	printf("%7s %7s %s %9s %9s %s\n", "PID", "PPID", "S", "RSS",
	       "MINFLT", "CMD");
	for (i = 0; i < n; i++)
		show(pids[i]);
	free(pids);
	return 0;
}
