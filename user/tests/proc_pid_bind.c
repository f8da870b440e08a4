/* user/tests/proc_pid_bind.c — an open /proc/PID file is bound to the
 * process (mem and pagemap: to its address space) it was opened on: once
 * that process is reaped, status and maps say ESRCH, mem and pagemap
 * read 0 bytes and a lookup in its held-open directory is ESRCH, even
 * when a new process has been given the same pid
 * (on zpk, made likely by lowering pid_max; the host's is left alone). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define PID_MAX_PATH	"/proc/sys/kernel/pid_max"
#define LOW_MAX		400
#define RESERVED_PIDS	300	/* allocation wraps to here, as Linux */

static char buf[PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));

/* A child that stores mark in buf, says so on ready, waits for a byte
 * (or EOF) on go, then exits 0 iff buf still holds mark. */
static pid_t marked_child(const char *mark, int *go_w, int *ready_r)
{
	int go[2], ready[2];
	pid_t p;
	char c;

	if (pipe(go) < 0 || pipe(ready) < 0)
		return -1;
	p = fork();
	if (p == 0) {
		close(go[1]);
		close(ready[0]);
		strcpy(buf, mark);
		if (write(ready[1], "r", 1) != 1)
			_exit(2);
		if (read(go[0], &c, 1) < 0)
			_exit(3);
		_exit(strcmp(buf, mark) ? 1 : 0);
	}
	close(go[0]);
	close(ready[1]);
	*go_w = go[1];
	*ready_r = ready[0];
	if (p > 0 && read(ready[0], &c, 1) != 1)
		return -1;
	return p;
}

/* Forks short-lived children until the last pid is past RESERVED_PIDS,
 * so that A's pid is one the wrap-around can give out again. */
static void pass_reserved_pids(void)
{
	for (int i = 0; i < LOW_MAX; i++) {
		pid_t p = fork();

		if (p == 0)
			_exit(0);
		if (p < 0 || waitpid(p, NULL, 0) != p || p > RESERVED_PIDS)
			return;
	}
}

/* Lets the child end and reaps it: its exit status, or -1. */
static int finish(pid_t p, int go_w, int ready_r)
{
	int status;

	close(go_w);
	close(ready_r);
	if (waitpid(p, &status, 0) != p || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int open_pid_file(pid_t p, const char *name, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/%s", p, name);
	return open(path, flags);
}

static int write_pid_max(const char *s)
{
	int fd = open(PID_MAX_PATH, O_WRONLY), ok;

	if (fd < 0)
		return 0;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok;
}

int main(void)
{
	int mem, status, maps, pagemap, dir, go, ready, err, zpk = is_zpk();
	char got[16] = "", old_max[32] = "", b[256];
	off_t pm_off = (off_t)((unsigned long)buf / PAGE_SIZE * 8);
	pid_t a, p = -1;
	long long ent;

	need_proc();
	tap_plan(11);
	if (zpk)
		read_file(PID_MAX_PATH, old_max, sizeof(old_max));
	if (zpk && !write_pid_max("400\n"))
		old_max[0] = 0;
	if (zpk)
		pass_reserved_pids();
	a = marked_child("process-A", &go, &ready);
	mem = open_pid_file(a, "mem", O_RDWR);
	status = open_pid_file(a, "status", O_RDONLY);
	maps = open_pid_file(a, "maps", O_RDONLY);
	pagemap = open_pid_file(a, "pagemap", O_RDONLY);
	dir = open_pid_file(a, "", O_RDONLY | O_DIRECTORY);
	tap_ok(a > 0 && mem >= 0 && status >= 0 && maps >= 0 && pagemap >= 0 &&
	       dir >= 0 &&
	       pread(mem, got, 10, (off_t)(unsigned long)buf) == 10 &&
	       !strcmp(got, "process-A") &&
	       pread(pagemap, &ent, 8, pm_off) == 8,
	       "/proc/%d/{,mem,status,maps,pagemap} open; mem reads A's mark", a);
	tap_ok(finish(a, go, ready) == 0, "A ended and was reaped");

	/* Until a new process has A's pid (zpk: at most pid_max forks). */
	for (int i = 0; zpk && i < 2 * LOW_MAX; i++) {
		p = marked_child("process-B", &go, &ready);
		if (p < 0 || p == a)
			break;
		finish(p, go, ready);
		p = -1;
	}
	if (zpk)
		tap_ok(p == a, "a new process B got A's pid %d", a);
	else
		tap_skip("pid reuse: zpk-only (the host's pid_max is shared)");

	tap_ok(pread(mem, got, 10, (off_t)(unsigned long)buf) == 0,
	       "A's mem reads 0 bytes (EOF) now, not B's memory");
	tap_ok(pwrite(mem, "clobbered", 10, (off_t)(unsigned long)buf) <= 0,
	       "A's mem writes nothing now");
	tap_ok(pread(pagemap, &ent, 8, pm_off) == 0, "A's pagemap reads 0 bytes");
	err = pread(status, b, sizeof(b), 0) < 0 ? errno : 0;
	tap_ok(err == ESRCH, "A's status is ESRCH (%s)", strerror(err));
	err = read(maps, b, sizeof(b)) < 0 ? errno : 0;
	tap_ok(err == ESRCH, "A's maps is ESRCH (%s)", strerror(err));
	err = openat(dir, "status", O_RDONLY) < 0 ? errno : 0;
	tap_ok(err == ESRCH, "status in A's held-open /proc/%d is ESRCH (%s)",
	       a, strerror(err));
	close(dir);
	close(mem);
	close(status);
	close(maps);
	close(pagemap);
	if (p > 0) {
		mem = open_pid_file(p, "mem", O_RDONLY);
		memset(got, 0, sizeof(got));
		tap_ok(mem >= 0 &&
		       pread(mem, got, 10, (off_t)(unsigned long)buf) == 10 &&
		       !strcmp(got, "process-B"),
		       "a new open of /proc/%d/mem reads B's mark", p);
		close(mem);
		tap_ok(finish(p, go, ready) == 0, "B's memory was not written");
	} else {
		tap_skip("B's mem: no pid reuse");
		tap_skip("B's memory: no pid reuse");
	}
	if (old_max[0])
		write_pid_max(old_max);
	tap_done();
}
