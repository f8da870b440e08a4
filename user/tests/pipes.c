/* user/tests/pipes.c — pipes between processes: data through, blocking on
 * a full pipe, EOF when the writer closes, EPIPE/SIGPIPE with no reader,
 * a read returning what is there, a sleeping reader holding no page. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define BIG (256 * 1024)	/* several times the pipe buffer */

/* Read until n bytes or EOF; returns the bytes read. */
static long read_all(int fd, char *buf, long n)
{
	long got = 0, r;

	while (got < n) {
		r = read(fd, buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += r;
	}
	return got;
}

/* n bytes in a pipe whose writer stays open, and one read of twice as
 * many (with iov, a readv of n then n more): Linux's pipe_read returns
 * the n at once. */
static void short_read(long n, int iov)
{
	static char b[16384];
	struct iovec v[2] = { { b, n }, { b + n, n } };
	int p[2], st;
	pid_t pid;
	long r;

	pipe(p);
	write(p[1], b, n);
	pid = fork();
	if (pid == 0) {
		sleep(1);
		write(p[1], "x", 1);
		_exit(0);
	}
	r = iov ? readv(p[0], v, 2) : read(p[0], b, 2 * n);
	tap_ok(r == n, "%ld bytes there, a %s of %ld: %ld at once, not "
	       "waiting for more", n, iov ? "readv" : "read", 2 * n, r);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	close(p[0]);
	close(p[1]);
}

static void on_usr1(int sig)
{
	(void)sig;
}

/* Stack below the child's frames, touched: the signal frame that wakes
 * it from pause lands on pages it has, and costs no page. */
static void __attribute__((noinline)) touch_stack(void)
{
	volatile char pad[65536];

	memset((char *)pad, 1, sizeof(pad));
}

/*
 * zpk: a process asleep in read of an empty pipe holds no page, as one
 * asleep in pause does not: the free count is the same in both. Another
 * CPU's free-page counts must not move with the readers asleep there.
 */
static void sleeping_reader(void)
{
	int p[2], sync[2], st, ok;
	long in_pause, in_read;
	char c;
	pid_t pid;

	pipe(p);
	pipe(sync);
	signal(SIGUSR1, on_usr1);
	pid = fork();
	if (pid == 0) {
		touch_stack();
		write(sync[1], "1", 1);
		pause();
		write(sync[1], "2", 1);
		_exit(read(p[0], &c, 1) == 1 ? 0 : 1);
	}
	ok = read(sync[0], &c, 1) == 1 && wait_asleep(pid);
	in_pause = sysinfo_free_pages();
	kill(pid, SIGUSR1);
	ok &= read(sync[0], &c, 1) == 1 && wait_asleep(pid);
	in_read = sysinfo_free_pages();
	write(p[1], "x", 1);
	waitpid(pid, &st, 0);
	if (is_zpk())
		tap_ok(ok && st == 0 && in_read == in_pause, "a reader asleep "
		       "in an empty pipe holds no page (free pages in pause "
		       "%ld, in read %ld)", in_pause, in_read);
	else
		tap_skip("zpk only: a reader asleep holds no page (free "
			 "pages are system-wide on Linux)");
	signal(SIGUSR1, SIG_DFL);
	close(p[0]);
	close(p[1]);
	close(sync[0]);
	close(sync[1]);
}

int main(void)
{
	static char buf[BIG];
	int p[2], st, err, i, ok;
	struct stat sb;
	unsigned sum, want;
	long r;
	pid_t pid;

	tap_plan(20);

	r = pipe(p);
	tap_ok(r == 0 && p[0] >= 0 && p[1] >= 0 && p[0] != p[1],
	       "pipe gives two fds (%d, %d)", p[0], p[1]);
	tap_ok(fstat(p[0], &sb) == 0 && S_ISFIFO(sb.st_mode),
	       "fstat says S_ISFIFO");
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		write(p[1], "ping", 4);
		_exit(0);
	}
	close(p[1]);
	memset(buf, 0, 8);
	r = read_all(p[0], buf, 4);
	tap_ok(r == 4 && memcmp(buf, "ping", 4) == 0,
	       "child -> parent: \"%.4s\"", buf);
	r = read(p[0], buf, 1);
	tap_ok(r == 0, "read gives 0 (EOF) once the writer is gone (%ld)", r);
	close(p[0]);
	waitpid(pid, &st, 0);

	/* More than the pipe holds: the writer blocks until we read. */
	pipe(p);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		for (i = 0; i < BIG; i++)
			buf[i] = i * 7 + i / 4096;
		for (i = 0; i < BIG; i += r) {
			r = write(p[1], buf + i, BIG - i);
			if (r <= 0)
				_exit(1);
		}
		_exit(0);
	}
	close(p[1]);
	r = read_all(p[0], buf, BIG);
	for (sum = want = 0, i = 0; i < BIG; i++) {
		sum = sum * 31 + (unsigned char)buf[i];
		want = want * 31 + (unsigned char)(i * 7 + i / 4096);
	}
	tap_ok(r == BIG && sum == want, "256 KiB through a pipe, in order "
	       "(%ld bytes)", r);
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "the writer saw no short or failed write (%s)", status_str(st));
	close(p[0]);

	/* No reader: EPIPE if SIGPIPE is ignored ... */
	pipe(p);
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	r = write(p[1], "x", 1);
	err = errno;
	tap_ok(r == -1 && err == EPIPE, "write with no reader, SIGPIPE "
	       "ignored: EPIPE (%s)", strerror(err));
	signal(SIGPIPE, SIG_DFL);
	/* ... and death by SIGPIPE if not. */
	pid = fork();
	if (pid == 0) {
		write(p[1], "x", 1);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGPIPE,
	       "write with no reader, default action: killed by SIGPIPE (%s)",
	       status_str(st));
	close(p[1]);

	/* A reader that goes away while the writer is blocked. */
	pipe(p);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		signal(SIGPIPE, SIG_IGN);
		for (;;) {
			r = write(p[1], buf, 4096);
			if (r < 0)
				_exit(errno == EPIPE ? 0 : 2);
		}
	}
	close(p[1]);
	read_all(p[0], buf, 10000);
	close(p[0]);
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a blocked writer gets "
	       "EPIPE when the reader closes (%s)", status_str(st));

	/* Reading fds and writing fds are not interchangeable. */
	pipe(p);
	r = write(p[0], "x", 1);
	err = errno;
	tap_ok(r == -1 && err == EBADF, "write to the read end: EBADF (%s)",
	       strerror(err));
	r = read(p[1], buf, 1);
	err = errno;
	tap_ok(r == -1 && err == EBADF, "read from the write end: EBADF (%s)",
	       strerror(err));

	/* dup2 onto stdin, as a shell does. */
	pid = fork();
	if (pid == 0) {
		dup2(p[0], 0);
		close(p[0]);
		close(p[1]);
		_exit(read_all(0, buf, 6) == 5 && !memcmp(buf, "hello", 5) ?
		      0 : 1);
	}
	write(p[1], "hello", 5);
	close(p[1]);
	close(p[0]);
	waitpid(pid, &st, 0);
	tap_ok(st == 0, "a child reads the pipe as its stdin after dup2 (%s)",
	       status_str(st));

	/* pipe2 flags. */
	tap_ok(pipe2(p, O_CLOEXEC | O_NONBLOCK) == 0 &&
	       (fcntl(p[0], F_GETFD) & FD_CLOEXEC) &&
	       (fcntl(p[1], F_GETFL) & O_NONBLOCK), "pipe2 sets FD_CLOEXEC "
	       "and O_NONBLOCK");
	r = read(p[0], buf, 1);
	err = errno;
	tap_ok(r == -1 && err == EAGAIN, "non-blocking read of an empty pipe: "
	       "EAGAIN (%s)", strerror(err));
	for (ok = 0, i = 0; i < 1024; i++) {
		r = write(p[1], buf, 4096);
		if (r < 0) {
			ok = errno == EAGAIN;
			break;
		}
	}
	tap_ok(ok, "non-blocking write to a full pipe: EAGAIN after %d KiB",
	       i * 4);
	/* A read of more than the pipe holds: all of it, in one read. */
	r = read(p[0], buf, BIG);
	tap_ok(r == i * 4096L, "one read of %d KiB takes the full pipe's %d "
	       "KiB (%ld bytes)", BIG / 1024, i * 4, r);
	close(p[0]);
	close(p[1]);

	/* A read of more than is there returns what is there, at once, the
	 * writer still open; a late byte from a child ends a read that
	 * wrongly waits for more (then 1 more byte comes back). */
	short_read(4096, 0);
	short_read(5000, 0);
	short_read(100, 1);
	sleeping_reader();
	tap_done();
}
