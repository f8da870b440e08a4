/* user/bin/vmstat.c — vmstat: the /proc/vmstat counters; vmstat -d: what
 * changed since the last -d (saved in /tmp/.vmstat) or over running CMD. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procfs.h"

#define STATE "/tmp/.vmstat"

extern char **environ;

static char *snapshot(void)
{
	char *t = proc_read("/proc/vmstat", NULL);

	if (!t) {
		fprintf(stderr, "vmstat: cannot read /proc/vmstat: %s\n",
			strerror(errno));
		exit(1);
	}
	return t;
}

static void print_all(const char *t)
{
	char name[64];
	long long v;
	int n;

	while (sscanf(t, "%63s %lld%n", name, &v, &n) == 2) {
		printf("%-32s %14lld\n", name, v);
		t += n;
	}
}

/* The counters of now that differ from before; a counter new since then
 * counts from 0.  Gauges such as nr_free_pages may go down. */
static void print_diff(const char *before, const char *now)
{
	int n, same = 0;
	long long v, old;
	char name[64];

	while (sscanf(now, "%63s %lld%n", name, &v, &n) == 2) {
		now += n;
		old = proc_vmstat(before, name);
		if (old < 0)
			old = 0;
		if (v == old) {
			same++;
			continue;
		}
		printf("%-32s %+14lld\n", name, v - old);
	}
	printf("(%d counters unchanged)\n", same);
}

static void save(const char *t)
{
	FILE *f = fopen(STATE, "w");

	if (!f || fputs(t, f) < 0 || fclose(f) != 0)
		fprintf(stderr, "vmstat: cannot save %s: %s\n", STATE,
			strerror(errno));
}

static int diff_last(void)
{
	char *now = snapshot(), *before = proc_read(STATE, NULL);

	if (!before)
		printf("vmstat: no earlier vmstat -d in %s: counting from "
		       "now\n", STATE);
	else
		print_diff(before, now);
	save(now);
	free(before);
	free(now);
	return 0;
}

static int diff_cmd(char **argv)
{
	char *before = snapshot(), *now;
	int st;
	pid_t pid;

	pid = fork();
	if (pid < 0) {
		perror("vmstat: fork");
		return 1;
	}
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "vmstat: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	waitpid(pid, &st, 0);
	now = snapshot();
	print_diff(before, now);
	free(before);
	free(now);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(int argc, char **argv)
{
	char *t;

	if (argc > 1 && strcmp(argv[1], "-d") == 0)
		return argc > 2 ? diff_cmd(argv + 2) : diff_last();
	if (argc > 1) {
		fprintf(stderr, "usage: vmstat [-d [CMD ARGS...]]\n");
		return 2;
	}
	t = snapshot();
	print_all(t);
	free(t);
	return 0;
}
