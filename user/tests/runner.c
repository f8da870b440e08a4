/* user/tests/runner.c — runs every test in its directory (or those named,
 * or all but those after --except), each in a child, with a page-leak
 * check and (zpk) an mm_verify sweep after each (a swap area the test
 * left on goes off first); TAP and a summary.
 * runner [-T N] [--timeout SECS] [--swapon DEV] [--bail] [--except]
 * [TEST...]: -T multiplies each test's timeout by N. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ulib.h"

#define MAX_TESTS	256
#ifndef TIMEOUT_SEC
#define TIMEOUT_SEC	300	/* per test (--timeout); zpk under TCG is slow */
#endif

extern char **environ;

static char dir[1024];
static char self[1200];		/* this program: the children run it */
static long timeout_s = TIMEOUT_SEC;
static int timeout_scale = 1;
static int bail;
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
	/* make kselftest's: it runs until killed unless given a time */
	if (strcmp(name, "ks/transhuge-stress") == 0)
		return "-d 10 64";
	if (!zpk || zpk_special())
		return NULL;
	if (strcmp(name, "zeropage/sparse_scan") == 0)
		return "64";
	if (strcmp(name, "zeropage/stress_integrity") == 0)
		return "40";
	return NULL;
}

/* The test whose output relay() copies, and its wait status once it has
 * been reaped (SIGCHLD, without SA_RESTART, ends relay()'s read). */
static pid_t test_pid;
static int test_status = -1, test_reaped;
static volatile sig_atomic_t sigchld;

static void on_sigchld(int sig)
{
	(void)sig;
	sigchld = 1;
}

/* Once the test has ended, what it left running may still hold its
 * output open: as init (zpk), the runner ends all of it (kill(-1)
 * spares init), so that a test whose children hang cannot hang the run. */
static void reap_test(void)
{
	sigchld = 0;
	if (test_reaped || waitpid(test_pid, &test_status, WNOHANG) != test_pid)
		return;
	test_reaped = 1;
	if (getpid() == 1)
		kill(-1, SIGKILL);
}

/* Copy the child's output to ours, each line indented (a TAP subtest). */
static void relay(int fd, int quiet)
{
	char in[1024], out[2048];
	int bol = 1, n, i, o;

	for (;;) {
		if (sigchld)
			reap_test();
		n = read(fd, in, sizeof(in));
		if (n == 0)
			break;
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
 * Starts path (argv) with fd 1 and 2 on out and fd 3 on fd3 (-1: leave
 * them), by vfork and execve: the runner runs on only once the child has
 * an address space of its own, so that nothing a child does reaches the
 * runner's memory, even under a kernel whose fork copies nothing (a
 * lab's skeleton). The runner's own descriptors are all close-on-exec.
 * The child's pid, or -1.
 */
static pid_t spawn(const char *path, char *const argv[], int out, int fd3)
{
	pid_t pid = vfork();

	if (pid == 0) {
		if (out >= 0 && (dup2(out, 1) < 0 || dup2(out, 2) < 0))
			_exit(127);
		if (fd3 == 3)
			fcntl(3, F_SETFD, 0);
		else if (fd3 >= 0 && dup2(fd3, 3) < 0)
			_exit(127);
		execve(path, argv, environ);
		_exit(127);
	}
	return pid;
}

/* runner --after-go PATH [ARG...]: waits for a byte on fd 3, then becomes
 * the test (exec): the test starts only when the runner says go. It
 * waits for the end of file too, so that the pipe is freed here, before
 * the test counts free pages, not by the runner's close while it runs. */
static int after_go(char **argv)
{
	char c;

	if (read(3, &c, 1) != 1)
		return 127;
	while (read(3, &c, 1) > 0)
		;
	close(3);
	execve(argv[0], argv, environ);
	fprintf(stderr, "runner: %s: %s\n", argv[0], strerror(errno));
	return 127;
}

/* runner --watchdog PID SECS: says it is ready on fd 3, then kills PID
 * after SECS (no alarm() on zpk); exit 0 means it did. Once it has said
 * so it allocates nothing: a first nanosleep has faulted in the stack and
 * code the real one uses, and fd 3 stays open (closing it could free the
 * pipe), since the test may be counting free pages by then. */
static int watchdog(pid_t pid, long secs)
{
	struct timespec ts = { secs, 0 }, none = { 0, 0 };

	nanosleep(&none, NULL);
	if (write(3, "r", 1) != 1)
		return 1;
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
	kill(pid, SIGKILL);
	return 0;
}

/*
 * Run path with argv {path, arg's words (up to four)}; returns its wait
 * status. A watchdog
 * kills it after timeout_s; *timed_out says. The test starts only once
 * the watchdog is ready: their start-up faults and frees must not land
 * in the system-wide figures a test measures (free pages, vmstat's
 * zero_page_* counters).
 */
static int run(const char *path, char *arg, int quiet, int *timed_out)
{
	char *test_argv[8] = { self, "--after-go", (char *)path };
	char pid_s[16], secs_s[16], words[64];
	char *dog_argv[] = { self, "--watchdog", pid_s, secs_s, NULL };
	int out[2], go[2], ready[2], wst;
	pid_t pid, dog = -1;
	char c = 0;

	snprintf(words, sizeof(words), "%s", arg ? arg : "");
	for (int i = 3; i < 7; i++)
		test_argv[i] = strtok(i == 3 ? words : NULL, " ");
	*timed_out = 0;
	test_status = -1;
	test_reaped = 0;
	if (pipe2(out, O_CLOEXEC) < 0 || pipe2(go, O_CLOEXEC) < 0 ||
	    pipe2(ready, O_CLOEXEC) < 0)
		return -1;
	pid = test_pid = spawn(self, test_argv, out[1], go[0]);
	close(out[1]);
	close(go[0]);
	if (pid > 0) {
		snprintf(pid_s, sizeof(pid_s), "%d", pid);
		snprintf(secs_s, sizeof(secs_s), "%ld", timeout_s);
		dog = spawn(self, dog_argv, -1, ready[1]);
	}
	close(ready[1]);
	if (dog > 0 && read(ready[0], &c, 1) != 1)
		dog = -1;
	close(ready[0]);
	if (pid > 0 && write(go[1], &c, 1) != 1)
		kill(pid, SIGKILL);
	close(go[1]);
	relay(out[0], quiet);
	close(out[0]);
	if (pid > 0 && !test_reaped)
		waitpid(pid, &test_status, 0);
	if (dog > 0) {
		kill(dog, SIGKILL);
		if (waitpid(dog, &wst, 0) == dog && WIFEXITED(wst) &&
		    WEXITSTATUS(wst) == 0)
			*timed_out = 1;
	}
	/* As init, reap what the test orphaned (it leaves no zombies). */
	while (waitpid(-1, &wst, WNOHANG) > 0)
		;
	return test_status;
}

/* Swap slots in use (sysinfo's totalswap - freeswap): a test that
 * leaves one behind leaks it, as a page. */
static long swap_used(void)
{
	struct sysinfo si;

	if (sysinfo(&si))
		return 0;
	return (long)(si.totalswap - si.freeswap);
}

/* /proc/swaps now, into buf ("" if there is none). */
static void read_swaps(char *buf, size_t n)
{
	if (read_file("/proc/swaps", buf, n) < 0)
		buf[0] = 0;
}

/*
 * A test killed before its swapoff leaves its area on: no leak of the
 * kernel's, but the area's slot map would count as one and hide why the
 * test failed. Each area listed now and not in before goes off (and is
 * said so); what it held of the test's is gone with the test.
 */
static void swapoff_left(const char *before)
{
	static char now_on[4096];
	char path[256], *l;

	read_swaps(now_on, sizeof(now_on));
	for (l = strchr(now_on, '\n'); l && l[1]; l = strchr(l + 1, '\n')) {
		char key[260];

		if (sscanf(l + 1, "%255s", path) != 1)
			continue;
		snprintf(key, sizeof(key), "\n%s ", path);
		if (strstr(before, key))
			continue;
		printf("# the test left %s swapped on: swapoff %s\n", path,
		       swapoff(path) ? strerror(errno) : "done");
	}
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
	int i, status, timed_out, verified, failed, zpk = is_zpk();
	struct rlimit nocore = { 0, 0 };
	struct sigaction on_child = { .sa_handler = on_sigchld };
	long before, after, swap_before, swap_after;
	static char swaps[4096];
	struct stat st;
	double t0;

	if (argc > 1 && strcmp(argv[1], "--warmup") == 0)
		return 0;
	if (argc > 2 && strcmp(argv[1], "--after-go") == 0)
		return after_go(argv + 2);
	if (argc == 4 && strcmp(argv[1], "--watchdog") == 0)
		return watchdog(atoi(argv[2]), atol(argv[3]));
	/* With a disk (swap may come), the runner's own pages stay in
	 * memory: it counts free pages and swap slots around each test, and
	 * reclaim would move both. Its children exec, and start unlocked. */
	if (access("/dev/vda", F_OK) == 0)
		mlockall(MCL_CURRENT | MCL_FUTURE);
	/* Tests kill children on purpose: no core files, here or there. */
	setrlimit(RLIMIT_CORE, &nocore);
	sigaction(SIGCHLD, &on_child, NULL);

	/* Tests live next to the runner; /tests when found by $PATH. */
	slash = strrchr(argv[0], '/');
	if (slash)
		snprintf(dir, sizeof(dir), "%.*s",
			 (int)(slash - argv[0]), argv[0]);
	else
		snprintf(dir, sizeof(dir), "/tests");
	/* -T N: N times the timeout, for a host busy with other work;
	 * --timeout SECS: the grader's boots end before 300 s. */
	if (argc > 2 && strcmp(argv[1], "-T") == 0) {
		timeout_scale = atoi(argv[2]) > 0 ? atoi(argv[2]) : 1;
		argv += 2;
		argc -= 2;
	}
	if (argc > 2 && strcmp(argv[1], "--timeout") == 0) {
		timeout_s = atol(argv[2]);
		argv += 2;
		argc -= 2;
	}
	timeout_s *= timeout_scale;
	/* --swapon DEV: swap on DEV before the first test (make kselftest
	 * boots zpk and Linux with a swap disk). */
	if (argc > 2 && strcmp(argv[1], "--swapon") == 0) {
		if (swapon(argv[2], 0))
			printf("# runner: swapon %s: %s\n", argv[2],
			       strerror(errno));
		argv += 2;
		argc -= 2;
	}
	/* --bail: stop at the first failure (the lab check's mutants,
	 * where one failing test is the whole answer). */
	if (argc > 1 && strcmp(argv[1], "--bail") == 0) {
		bail = 1;
		argv++;
		argc--;
	}
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
	snprintf(self, sizeof(self), "%s/%s", dir, slash ? slash + 1 : argv[0]);
	run(self, "--warmup", 1, &timed_out);
	/* Our /proc/PID inode (what a test's lookup of /proc/1 finds) lives
	 * as long as we do: made now, not in the first test that looks; so
	 * does /proc/swaps', read around each test. */
	stat("/proc/self", &st);
	read_swaps(swaps, sizeof(swaps));

	tap_plan(2 * ntests);
	for (i = 0; i < ntests; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		t0 = now();
		before = sysinfo_free_pages();
		swap_before = swap_used();
		read_swaps(swaps, sizeof(swaps));
		status = run(path, test_arg(names[i], zpk), 0, &timed_out);
		swapoff_left(swaps);
		verified = mm_verify_clean();
		after = free_pages_back(before);
		swap_after = swap_used();
		failed = !tap_ok(status == 0, "%s (%s%s, %.2f s)", names[i],
				 timed_out ? "timed out, " : "",
				 status_str(status), now() - t0);
		if (zpk)
			failed |= !tap_ok(after >= before - LEAK_SLACK &&
					  verified && swap_after <= swap_before,
					  "%s: no page leak (free pages %ld -> "
					  "%ld), mm_verify %s%s", names[i],
					  before, after, verified ? "clean" :
					  "found differences",
					  swap_after > swap_before ?
					  ", swap slots leaked" : "");
		else
			tap_skip("%s: page leak check is zpk-only (Linux "
				 "free RAM is system-wide: %+ld pages)",
				 names[i], after - before);
		if (bail && failed) {
			printf("Bail out! %s failed\n", names[i]);
			fflush(stdout);
			break;
		}
	}
	tap_summary();
	tap_done();
}
