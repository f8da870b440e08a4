/* user/tests/oom.c — the OOM killer: a hog that touches memory until none
 * is left is SIGKILLed, never this test (oom_score_adj -1000) or init, and
 * its memory comes back; a sleeping hog is reaped for a task that faults.
 * Then /proc/PID/oom_score and oom_score_adj in Linux's format. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define CHUNK		(16UL << 20)
#define MAX_CHUNKS	1024		/* 16 GiB: more than any test run */
#define LOW_PAGES	1024		/* the sleeping hog leaves this free */
#define WANT_PAGES	4096		/* then the test faults in this many */

/* Writes s to /proc/PID/oom_score_adj (0 for self): 0 or an errno. */
static int set_adj(int pid, const char *s)
{
	char path[64];

	snprintf(path, sizeof(path), pid ? "/proc/%d/oom_score_adj" :
		 "/proc/self/oom_score_adj", pid);
	return write_file(path, s);
}

/* /proc/PID/NAME (0: self, -1: /proc/NAME) as a number, or -99999 if unreadable. */
static long proc_num(int pid, const char *name)
{
	char path[64], buf[32];

	if (pid < 0)		/* not a process's: /proc/NAME */
		snprintf(path, sizeof(path), "/proc/%s", name);
	else if (pid)
		snprintf(path, sizeof(path), "/proc/%d/%s", pid, name);
	else
		snprintf(path, sizeof(path), "/proc/self/%s", name);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -99999;
	return strtol(buf, NULL, 10);
}

/* The next 16 MiB of private memory (one mapping may not exceed RAM). */
static char *map_chunk(void)
{
	char *p = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* Touches page after page until killed. */
static void __attribute__((noreturn)) hog(void)
{
	set_adj(0, "1000");
	for (int n = 0; n < MAX_CHUNKS; n++) {
		char *p = map_chunk();

		for (unsigned long i = 0; p && i < CHUNK; i += PAGE_SIZE)
			p[i] = 1;
	}
	_exit(3);	/* not killed: the test fails */
}

/* Touches pages until LOW_PAGES are left, tells fd, then sleeps. */
static void __attribute__((noreturn)) sleeping_hog(int fd)
{
	set_adj(0, "1000");
	for (int n = 0; n < MAX_CHUNKS; n++) {
		char *p = map_chunk();
		unsigned long i;

		for (i = 0; p && i < CHUNK; i += PAGE_SIZE) {
			if (i % (64 * PAGE_SIZE) == 0 &&
			    sysinfo_free_pages() < LOW_PAGES)
				break;
			p[i] = 1;
		}
		if (i < CHUNK)
			break;
	}
	write(fd, "r", 1);
	for (;;)
		sleep(1000);
}

static int killed(int st)
{
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
}

/* The hog faults: it is the victim itself. */
static void hog_faults(void)
{
	long free0 = sysinfo_free_pages(), free1;
	int st = -1;
	const char *log;
	pid_t pid;

	klog_clear();
	pid = fork();
	if (pid == 0)
		hog();
	if (pid > 0)
		waitpid(pid, &st, 0);
	tap_ok(killed(st), "a hog touching memory without end is killed: %s",
	       status_str(st));
	log = klog_read();
	tap_ok(strstr(log, "Out of memory: Killed process") &&
	       strstr(log, "Tasks state (memory values in pages)"),
	       "the kernel log: the report, with the task table");
	free1 = sysinfo_free_pages();
	tap_ok(free1 >= free0 - 16, "its memory is back: free pages %ld -> "
	       "%ld", free0, free1);
}

/* This test faults while a sleeping hog holds the memory: the hog is
 * killed and reaped at once, and every fault of ours succeeds. */
static void test_faults(void)
{
	long free0 = sysinfo_free_pages(), free1, score = -1;
	const char *log;
	char *p, c;
	int fd[2], st = -1, ok = 1;
	pid_t pid;

	/* Linux's vm.oom_dump_tasks = 0: the report without the table. */
	write_file("/proc/sys/vm/oom_dump_tasks", "0");
	klog_clear();
	pipe(fd);
	pid = fork();
	if (pid == 0)
		sleeping_hog(fd[1]);
	if (pid < 0 || read(fd[0], &c, 1) != 1) {
		tap_ok(0, "the sleeping hog started");
		return;
	}
	score = proc_num(pid, "oom_score");
	tap_ok(score > 1300 && proc_num(0, "oom_score") == 0,
	       "the hog's oom_score %ld (adj 1000, most of RAM), ours %ld",
	       score, proc_num(0, "oom_score"));
	p = mmap(NULL, WANT_PAGES * PAGE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (int i = 0; p != MAP_FAILED && i < WANT_PAGES; i++)
		p[i * PAGE_SIZE] = (char)i;
	for (int i = 0; p != MAP_FAILED && i < WANT_PAGES; i++)
		ok &= p[i * PAGE_SIZE] == (char)i;
	tap_ok(p != MAP_FAILED && ok, "we fault in %d pages with %d left "
	       "free: they all hold what we wrote", WANT_PAGES, LOW_PAGES);
	waitpid(pid, &st, 0);
	tap_ok(killed(st), "the sleeping hog was killed: %s", status_str(st));
	log = klog_read();
	tap_ok(proc_num(-1, "sys/vm/oom_dump_tasks") == 0 &&
	       strstr(log, "Out of memory: Killed process") &&
	       !strstr(log, "Tasks state"), "oom_dump_tasks 0: the report "
	       "without the task table");
	write_file("/proc/sys/vm/oom_dump_tasks", "1");
	munmap(p, WANT_PAGES * PAGE_SIZE);
	close(fd[0]);
	close(fd[1]);
	free1 = sysinfo_free_pages();
	tap_ok(free1 >= free0 - 16, "all memory is back: free pages %ld -> "
	       "%ld", free0, free1);
}

/* Linux's format and limits, on either kernel. */
static void proc_files(void)
{
	int err = set_adj(0, "500");
	long adj = proc_num(0, "oom_score_adj"), score;

	tap_ok(err == 0 && adj == 500, "oom_score_adj: write 500, read back "
	       "%ld", adj);
	score = proc_num(0, "oom_score");
	/* adj is scaled by totalpages / 1000, truncated: a little less
	 * than half of RAM on a small machine. */
	if (getpid() == 1)	/* as PID 1 (zpk-run oom): never chosen */
		tap_ok(score == 0, "oom_score of init: %ld (want 0)", score);
	else
		tap_ok(score >= 950 && score <= 1100, "oom_score at adj 500: "
		       "%ld (about (1000 + 500) * 2 / 3)", score);
	tap_ok(set_adj(0, "1001") == EINVAL && set_adj(0, "-1001") == EINVAL &&
	       set_adj(0, "abc") == EINVAL && set_adj(0, "- 5") == EINVAL,
	       "1001, -1001, abc and \"- 5\": EINVAL");
	err = set_adj(0, " 700\n");
	adj = proc_num(0, "oom_score_adj");
	tap_ok(err == 0 && adj == 700, "blanks around the number are fine: "
	       "%ld", adj);
}

int main(void)
{
	need_proc();
	tap_plan(13);
	if (!is_zpk()) {
		/* A hog on the host would meet its real OOM killer. */
		for (int i = 0; i < 9; i++)
			tap_skip("zpk only: exhausting the host's memory");
	} else {
		tap_ok(set_adj(0, "-1000") == 0 &&
		       proc_num(0, "oom_score_adj") == -1000,
		       "this test: oom_score_adj -1000 (never killed)");
		hog_faults();
		test_faults();
	}
	proc_files();
	tap_done();
}
