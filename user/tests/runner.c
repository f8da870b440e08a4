/* user/tests/runner.c — runs every test in its directory (or those named,
 * or all but those after --except), each in a child, with a page-leak
 * check after each; TAP and a summary. runner [-T N] [--except] [TEST...]:
 * -T multiplies each test's timeout by N. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ulib.h"

#define MAX_TESTS	256
#ifndef TIMEOUT_SEC
#define TIMEOUT_SEC	300	/* per test; zpk under TCG is slow */
#endif

extern char **environ;

static char dir[1024];
static char *names[MAX_TESTS];
static int ntests;

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The tests in dir/sub (sub "" for dir itself), named "sub/name";
 * subdirectories are not tests. */
static void find_in(const char *sub)
{
	char path[2048], name[512];
	struct dirent *de;
	struct stat st;
	DIR *d;

	snprintf(path, sizeof(path), "%s%s%s", dir, *sub ? "/" : "", sub);
	d = opendir(path);
	if (!d) {
		fprintf(stderr, "runner: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	while ((de = readdir(d)) && ntests < MAX_TESTS) {
		if (de->d_name[0] == '.' || strcmp(de->d_name, "runner") == 0)
			continue;
		snprintf(name, sizeof(name), "%s%s%s", sub, *sub ? "/" : "",
			 de->d_name);
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			continue;
		names[ntests++] = strdup(name);
	}
	closedir(d);
}

/* Every test next to the runner, then those in zeropage/ (if any). */
static void find_tests(void)
{
	char path[1200];
	struct stat st;

	find_in("");
	snprintf(path, sizeof(path), "%s/zeropage", dir);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		find_in("zeropage");
	qsort(names, ntests, sizeof(*names), cmp);
}

/* Drops the tests named in skip[0..n) from the list (--except). */
static void drop_tests(char **skip, int n)
{
	int i, j, k = 0;

	for (i = 0; i < ntests; i++) {
		for (j = 0; j < n && strcmp(names[i], skip[j]) != 0; j++)
			;
		if (j == n)
			names[k++] = names[i];
	}
	ntests = k;
}

/* True when zpk runs under its default zero_page=special. */
static int zpk_special(void)
{
	char buf[64];

	return read_file("/proc/sys/vm/zero_page", buf, sizeof(buf)) > 0 &&
	       strstr(buf, "[special]") != NULL;
}

/*
 * A test's argv[1] on zpk, whose boots run under TCG: the full sizes
 * (sparse_scan 256 MiB, stress_integrity 16 x 200 rounds, ~110 s) under
 * the default policy, and 64 MiB / 40 rounds under the other two, so that
 * make test stays a few minutes long.
 */
static char *test_arg(const char *name, int zpk)
{
	if (!zpk || zpk_special())
		return NULL;
	if (strcmp(name, "zeropage/sparse_scan") == 0)
		return "64";
	if (strcmp(name, "zeropage/stress_integrity") == 0)
		return "40";
	return NULL;
}

/* Copy the child's output to ours, each line indented (a TAP subtest). */
static void relay(int fd, int quiet)
{
	char in[1024], out[2048];
	int bol = 1, n, i, o;

	while ((n = read(fd, in, sizeof(in))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = o = 0; i < n; i++) {
			if (bol) {
				memcpy(out + o, "    ", 4);
				o += 4;
			}
			out[o++] = in[i];
			bol = in[i] == '\n';
		}
		if (!quiet)
			write(1, out, o);
	}
	if (!bol && !quiet)
		write(1, "\n", 1);
}

/*
 * Run path with argv {path, arg}; returns its wait status.  A watchdog
 * child kills it after TIMEOUT_SEC times timeout_scale (no alarm() on
 * zpk); *timed_out says.
 * The test starts only once the watchdog is asleep: its fork's faults
 * must not land in the system-wide figures a test measures (free pages,
 * vmstat's zero_page_* counters).
 */
static int timeout_scale = 1;

static int run(const char *path, char *arg, int quiet, int *timed_out)
{
	char *argv[] = { (char *)path, arg, NULL };
	int pfd[2], go[2], ready[2], status = -1, wst;
	pid_t pid, dog;
	char c = 0;

	*timed_out = 0;
	if (pipe(pfd) < 0)
		return -1;
	if (pipe(go) < 0 || pipe(ready) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		close(go[1]);
		close(ready[0]);
		close(ready[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		close(go[0]);
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		close(pfd[1]);
		execve(path, argv, environ);
		fprintf(stderr, "runner: %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	close(go[0]);
	if (pid < 0) {
		close(pfd[0]);
		return -1;
	}
	dog = fork();
	if (dog == 0) {
		struct timespec ts = { TIMEOUT_SEC * timeout_scale, 0 };

		close(pfd[0]);
		close(go[1]);
		close(ready[0]);
		if (write(ready[1], &c, 1) != 1)
			_exit(1);
		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
		kill(pid, SIGKILL);
		_exit(0);
	}
	close(ready[1]);
	if (dog > 0 && read(ready[0], &c, 1) != 1)
		dog = -1;
	close(ready[0]);
	if (write(go[1], &c, 1) != 1)
		kill(pid, SIGKILL);
	close(go[1]);
	relay(pfd[0], quiet);
	close(pfd[0]);
	waitpid(pid, &status, 0);
	if (dog > 0) {
		kill(dog, SIGKILL);
		if (waitpid(dog, &wst, 0) == dog && WIFEXITED(wst))
			*timed_out = 1;
	}
	/* As init, reap what the test orphaned (it leaves no zombies). */
	while (waitpid(-1, &wst, WNOHANG) > 0)
		;
	return status;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	char path[1200], *slash;
	int i, status, timed_out, zpk = is_zpk();
	struct rlimit nocore = { 0, 0 };
	long before, after;
	struct stat st;
	double t0;

	if (argc > 1 && strcmp(argv[1], "--warmup") == 0)
		return 0;
	/* -T N: N times the timeout, for a host busy with other work. */
	if (argc > 2 && strcmp(argv[1], "-T") == 0) {
		timeout_scale = atoi(argv[2]) > 0 ? atoi(argv[2]) : 1;
		argv[2] = argv[0];
		argv += 2;
		argc -= 2;
	}
	/* Tests kill children on purpose: no core files, here or there. */
	setrlimit(RLIMIT_CORE, &nocore);

	/* Tests live next to the runner; /tests when found by $PATH. */
	slash = strrchr(argv[0], '/');
	if (slash)
		snprintf(dir, sizeof(dir), "%.*s",
			 (int)(slash - argv[0]), argv[0]);
	else
		snprintf(dir, sizeof(dir), "/tests");
	if (argc > 1 && strcmp(argv[1], "--except") == 0) {
		find_tests();
		drop_tests(argv + 2, argc - 2);
	} else if (argc > 1) {
		for (i = 1; i < argc && ntests < MAX_TESTS; i++)
			names[ntests++] = argv[i];
	} else {
		find_tests();
	}

	/* One untimed round first, so that the runner's own first-use
	 * allocations (stack, pipe, slab) do not count as the first
	 * test's leak. */
	snprintf(path, sizeof(path), "%s/%s", dir, slash ? slash + 1 : argv[0]);
	run(path, "--warmup", 1, &timed_out);
	/* Our /proc/PID inode (what a test's lookup of /proc/1 finds) lives
	 * as long as we do: made now, not in the first test that looks. */
	stat("/proc/self", &st);

	tap_plan(2 * ntests);
	for (i = 0; i < ntests; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		t0 = now();
		before = sysinfo_free_pages();
		status = run(path, test_arg(names[i], zpk), 0, &timed_out);
		after = sysinfo_free_pages();
		tap_ok(status == 0, "%s (%s%s, %.2f s)", names[i],
		       timed_out ? "timed out, " : "", status_str(status),
		       now() - t0);
		if (zpk)
			tap_ok(after >= before - LEAK_SLACK,
			       "%s: no page leak (free pages %ld -> %ld)",
			       names[i], before, after);
		else
			tap_skip("%s: page leak check is zpk-only (Linux "
				 "free RAM is system-wide: %+ld pages)",
				 names[i], after - before);
	}
	tap_summary();
	tap_done();
}
