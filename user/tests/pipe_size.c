/* user/tests/pipe_size.c — F_SETPIPE_SZ and F_GETPIPE_SZ as Linux: 64 KiB
 * at first, sizes rounded to a power of two of pages (a page at least),
 * the pipe then holds that many pages, its data kept in order; EBUSY when
 * the data would not fit, EINVAL past 2^31, EBADF for what is not a pipe;
 * /proc/sys/fs/pipe-max-size, which binds only unprivileged callers. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define MAXSZ	"/proc/sys/fs/pipe-max-size"

static long fc(int fd, int cmd, unsigned long arg)
{
	long r = syscall(SYS_fcntl, fd, cmd, arg);

	return r < 0 ? -errno : r;
}

/* Nonblocking writes of a page each until the pipe is full: how many. */
static int fill_pages(int wfd)
{
	char page[PAGE_SIZE];
	int n = 0;

	memset(page, 'p', sizeof(page));
	fcntl(wfd, F_SETFL, O_NONBLOCK);
	while (n < 1000 && write(wfd, page, sizeof(page)) == PAGE_SIZE)
		n++;
	return n;
}

static void check_sizes(void)
{
	int p[2], n;

	pipe(p);
	tap_ok(fc(p[0], F_GETPIPE_SZ, 0) == 65536 &&
	       fc(p[1], F_GETPIPE_SZ, 0) == 65536,
	       "a new pipe is 64 KiB, seen from either end");
	tap_ok(fc(p[1], F_SETPIPE_SZ, 262144) == 262144 &&
	       fc(p[0], F_GETPIPE_SZ, 0) == 262144,
	       "F_SETPIPE_SZ 256 KiB returns it, F_GETPIPE_SZ reads it");
	n = fill_pages(p[1]);
	tap_ok(n == 64, "the pipe then holds 64 pages (%d)", n);
	close(p[0]);
	close(p[1]);

	pipe(p);
	tap_ok(fc(p[0], F_SETPIPE_SZ, 0) == 4096 &&
	       fc(p[0], F_SETPIPE_SZ, 1) == 4096 &&
	       fc(p[0], F_SETPIPE_SZ, 5000) == 8192 &&
	       fc(p[0], F_SETPIPE_SZ, 100000) == 131072,
	       "sizes round up to a power of two of pages, a page at least");
	n = fill_pages(p[1]);
	tap_ok(n == 32, "128 KiB holds 32 pages (%d)", n);
	tap_ok(fc(p[0], F_SETPIPE_SZ, (1UL << 31) + 1) == -EINVAL &&
	       fc(p[0], F_GETPIPE_SZ, 0) == 131072,
	       "past 2^31 is EINVAL, nothing changed");
	tap_ok(fc(p[0], F_SETPIPE_SZ, 0x100000000UL + 4096) == -EBUSY,
	       "the argument is an unsigned int (2^32 + 4096 is 4096: "
	       "EBUSY here)");
	close(p[0]);
	close(p[1]);
}

static void check_busy(void)
{
	char buf[3 * PAGE_SIZE], got[3 * PAGE_SIZE];
	int p[2], ok;

	pipe(p);
	for (int i = 0; i < (int)sizeof(buf); i++)
		buf[i] = (char)(i * 7 + i / 4096);
	for (int i = 0; i < 3; i++)
		write(p[1], buf + i * PAGE_SIZE, PAGE_SIZE);
	tap_ok(fc(p[1], F_SETPIPE_SZ, 8192) == -EBUSY &&
	       fc(p[1], F_GETPIPE_SZ, 0) == 65536,
	       "3 pages of data do not fit in 2: EBUSY, size kept");
	tap_ok(fc(p[1], F_SETPIPE_SZ, 16384) == 16384,
	       "they fit in 4: shrunk");
	ok = read(p[0], got, sizeof(got)) == sizeof(got) &&
	     !memcmp(buf, got, sizeof(got));
	tap_ok(ok, "the data reads back whole and in order");
	write(p[1], "abc", 3);
	tap_ok(fc(p[1], F_SETPIPE_SZ, 4096) == 4096,
	       "a few bytes fit in one page");
	close(p[0]);
	close(p[1]);
}

static void check_not_pipe(void)
{
	int fd = open("/proc/self/status", O_RDONLY), p[2];

	tap_ok(fc(fd, F_GETPIPE_SZ, 0) == -EBADF &&
	       fc(fd, F_SETPIPE_SZ, 4096) == -EBADF,
	       "a file that is not a pipe: EBADF");
	close(fd);
	tap_ok(fc(99, F_GETPIPE_SZ, 0) == -EBADF, "no descriptor: EBADF");
	if (test_dir_make("pipe_size") || mkfifo(at("fifo"), 0600)) {
		tap_ok(0, "cannot make a FIFO");
		return;
	}
	fd = open(at("fifo"), O_RDWR);
	tap_ok(fc(fd, F_GETPIPE_SZ, 0) == 65536 &&
	       fc(fd, F_SETPIPE_SZ, 8192) == 8192, "a FIFO has a size too");
	close(fd);
	unlink(at("fifo"));
	rmdir(test_dir());
	(void)p;
}

/* A writer asleep on a full pipe goes on once the pipe grows. */
static void check_wake(void)
{
	char page[PAGE_SIZE];
	int p[2], st = -1;
	pid_t pid;

	pipe(p);
	memset(page, 'w', sizeof(page));
	pid = fork();
	if (pid == 0) {
		for (int i = 0; i < 20; i++)
			if (write(p[1], page, sizeof(page)) != PAGE_SIZE)
				_exit(1);
		_exit(0);
	}
	usleep(200000);
	tap_ok(waitpid(pid, &st, WNOHANG) == 0,
	       "a writer of 20 pages waits on a 16-page pipe");
	fc(p[0], F_SETPIPE_SZ, 131072);
	for (int i = 0; i < 200 && waitpid(pid, &st, WNOHANG) == 0; i++)
		usleep(10000);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "growing the pipe lets it finish, nothing read (%s)",
	       status_str(st));
	if (!WIFEXITED(st)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	close(p[0]);
	close(p[1]);
}

/* As another user than root, growing past pipe-max-size is EPERM. */
static void unprivileged(void *arg)
{
	int p[2];

	(void)arg;
	if (setuid(65534))
		_exit(3);
	pipe(p);
	if (fc(p[0], F_SETPIPE_SZ, 131072) != -EPERM)
		_exit(1);
	_exit(fc(p[0], F_SETPIPE_SZ, 65536) == 65536 &&
	      fc(p[0], F_SETPIPE_SZ, 8192) == 8192 ? 0 : 2);
}

#define CAP_SYS_RESOURCE	24

/* The capability is in CapEff of /proc/self/status. */
static int has_cap(int cap)
{
	static char status[4096];
	char *l;

	if (read_file("/proc/self/status", status, sizeof(status)) <= 0)
		return 0;
	l = strstr(status, "CapEff:");
	return l && (strtoull(l + 7, NULL, 16) >> cap) & 1;
}

static void check_max(void)
{
	char old[32], now[32];
	long v, r;
	int p[2], st, ok;

	if (read_file(MAXSZ, old, sizeof(old)) <= 0) {
		tap_ok(0, MAXSZ " can be read");
		return;
	}
	v = atol(old);
	tap_ok(v >= 4096 && !(v & (v - 1)), MAXSZ " is a power of two "
	       "(%ld)", v);
	if (!write_text(MAXSZ, "100000\n")) {
		tap_skip("not root: " MAXSZ " cannot be written");
		tap_skip("not root");
		tap_skip("not root");
		return;
	}
	read_file(MAXSZ, now, sizeof(now));
	ok = atol(now) == 131072 && !write_text(MAXSZ, "2147483649");
	/* An unsigned int, as Linux's round_pipe_size takes: 2^32 is 0,
	 * which rounds up to a page. */
	ok &= write_text(MAXSZ, "4294967296") &&
	      read_file(MAXSZ, now, sizeof(now)) > 0 && atol(now) == 4096;
	tap_ok(ok, "a write is rounded as F_SETPIPE_SZ rounds; past 2^31 "
	       "EINVAL, 2^32 is 0 (a page)");
	write_text(MAXSZ, "65536");
	pipe(p);
	r = fc(p[0], F_SETPIPE_SZ, 262144);
	if (has_cap(CAP_SYS_RESOURCE))
		tap_ok(r == 262144, "CAP_SYS_RESOURCE may go past it (%ld)",
		       r);
	else
		tap_ok(r == -EPERM, "without CAP_SYS_RESOURCE (a container's "
		       "root) growing past it is EPERM (%ld)", r);
	close(p[0]);
	close(p[1]);
	/* zpk has no credentials yet: setuid would only say ENOSYS. */
	st = is_zpk() ? 3 << 8 : in_child(unprivileged, NULL);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 3)
		tap_skip("setuid failed: no other user here (zpk: everyone "
			 "is root)");
	else
		tap_ok(st == 0, "another user: growing past it is EPERM, up "
		       "to it and shrinking are not (%s)", status_str(st));
	write_text(MAXSZ, old);
}

int main(void)
{
	tap_plan(20);
	check_sizes();
	check_busy();
	check_not_pipe();
	check_wake();
	check_max();
	tap_done();
}
