/* user/tests/locks.c — advisory locks as Linux's: POSIX record locks
 * (F_SETLK, F_SETLKW, F_GETLK: how ranges split and merge, conflicts,
 * errnos, release on any close and at exit, a blocked F_SETLKW woken by
 * an unlock or ended by a signal, EDEADLK), OFD locks (owned by the open
 * file), flock(2), and the byte-range locking SQLite does on a /tmp
 * database (pending, reserved and shared bytes). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ulib.h"

#ifndef F_OFD_GETLK
#define F_OFD_GETLK	36
#define F_OFD_SETLK	37
#define F_OFD_SETLKW	38
#endif

static const char *path;

static int lk(int fd, int cmd, int type, off_t start, off_t len)
{
	struct flock l = { .l_type = type, .l_whence = SEEK_SET,
			   .l_start = start, .l_len = len };

	return fcntl(fd, cmd, &l);
}

/* F_GETLK of [start, start+len) for type from another process (a fork:
 * locks are per process): what it reports, in *l. */
static int getlk_other(int type, off_t start, off_t len, struct flock *l)
{
	int p[2], st;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		int fd = open(path, O_RDWR);
		struct flock g = { .l_type = type, .l_whence = SEEK_SET,
				   .l_start = start, .l_len = len };

		if (fcntl(fd, F_GETLK, &g))
			g.l_type = -1;
		write(p[1], &g, sizeof(g));
		_exit(0);
	}
	close(p[1]);
	st = read(p[0], l, sizeof(*l)) == sizeof(*l) ? 0 : -1;
	close(p[0]);
	waitpid(pid, NULL, 0);
	return st;
}

/* Does another process see a lock of type at [start, start+len) from
 * the parent, exactly? */
static int other_sees(int type, off_t start, off_t len, off_t qstart,
		      off_t qlen, int qtype)
{
	struct flock l;

	if (getlk_other(qtype, qstart, qlen, &l))
		return 0;
	if (type == F_UNLCK)
		return l.l_type == F_UNLCK;
	return l.l_type == type && l.l_start == start && l.l_len == len &&
	       l.l_pid == getpid() && l.l_whence == SEEK_SET;
}

static void ranges(int fd)
{
	lk(fd, F_SETLK, F_UNLCK, 0, 0);
	tap_ok(lk(fd, F_SETLK, F_WRLCK, 0, 100) == 0, "F_SETLK write [0,100)");
	tap_ok(other_sees(F_WRLCK, 0, 100, 0, 0, F_RDLCK), "another process's "
	       "F_GETLK reports it: type, start, len, our pid");
	tap_ok(lk(fd, F_SETLK, F_UNLCK, 40, 20) == 0 &&
	       other_sees(F_WRLCK, 0, 40, 0, 0, F_RDLCK) &&
	       other_sees(F_UNLCK, 0, 0, 40, 20, F_WRLCK) &&
	       other_sees(F_WRLCK, 60, 40, 50, 0, F_WRLCK),
	       "unlocking [40,60) splits it: [0,40) and [60,100)");
	tap_ok(lk(fd, F_SETLK, F_RDLCK, 40, 20) == 0 &&
	       other_sees(F_UNLCK, 0, 0, 40, 20, F_RDLCK) &&
	       other_sees(F_RDLCK, 40, 20, 40, 20, F_WRLCK),
	       "a read lock in the hole: shared with a reader, not a writer");
	tap_ok(lk(fd, F_SETLK, F_WRLCK, 40, 20) == 0 &&
	       other_sees(F_WRLCK, 0, 100, 0, 0, F_RDLCK),
	       "writing the hole merges the three into [0,100)");
	tap_ok(lk(fd, F_SETLK, F_WRLCK, 100, 10) == 0 &&
	       other_sees(F_WRLCK, 0, 110, 0, 0, F_RDLCK),
	       "an adjacent lock of the same type merges: [0,110)");
	tap_ok(lk(fd, F_SETLK, F_RDLCK, 10, 10) == 0 &&
	       other_sees(F_WRLCK, 0, 10, 0, 0, F_RDLCK) &&
	       other_sees(F_RDLCK, 10, 10, 10, 5, F_WRLCK) &&
	       other_sees(F_WRLCK, 20, 90, 15, 10, F_RDLCK),
	       "a read lock inside a write lock splits it in three");
	tap_ok(lk(fd, F_SETLK, F_WRLCK, 200, 0) == 0 &&
	       other_sees(F_WRLCK, 200, 0, 1000, 5, F_RDLCK),
	       "len 0 locks to the end of any file (F_GETLK's len 0)");
	tap_ok(lk(fd, F_SETLK, F_UNLCK, 0, 0) == 0 &&
	       other_sees(F_UNLCK, 0, 0, 0, 0, F_WRLCK),
	       "unlocking [0,EOF) drops them all");
	{
		struct flock l = { .l_type = F_WRLCK, .l_whence = SEEK_SET,
				   .l_start = 10, .l_len = -5 };

		tap_ok(fcntl(fd, F_SETLK, &l) == 0 &&
		       other_sees(F_WRLCK, 5, 5, 0, 0, F_RDLCK),
		       "a negative len reaches back: start 10 len -5 is [5,10)");
		l.l_len = -11;
		tap_fails(fcntl(fd, F_SETLK, &l), EINVAL,
			  "a range before byte 0");
		lk(fd, F_SETLK, F_UNLCK, 0, 0);
	}
}

static void errnos(int fd)
{
	struct flock l = { .l_type = F_WRLCK, .l_whence = 3 };
	int ro = open(path, O_RDONLY), wo = open(path, O_WRONLY);

	tap_fails(fcntl(fd, F_SETLK, &l), EINVAL, "l_whence 3");
	l = (struct flock){ .l_type = 7 };
	tap_fails(fcntl(fd, F_SETLK, &l), EINVAL, "l_type 7");
	l = (struct flock){ .l_type = F_UNLCK };
	tap_fails(fcntl(fd, F_GETLK, &l), EINVAL, "F_GETLK of F_UNLCK");
	tap_fails(lk(ro, F_SETLK, F_WRLCK, 0, 1), EBADF,
		  "a write lock through an O_RDONLY file");
	tap_fails(lk(wo, F_SETLK, F_RDLCK, 0, 1), EBADF,
		  "a read lock through an O_WRONLY file");
	tap_ok(lk(ro, F_SETLK, F_UNLCK, 0, 1) == 0, "unlocking needs neither");
	tap_fails(fcntl(fd, F_SETLK, (void *)8), EFAULT, "a bad struct flock");
	l = (struct flock){ .l_type = F_RDLCK, .l_pid = 1 };
	tap_fails(fcntl(fd, F_OFD_SETLK, &l), EINVAL, "F_OFD_SETLK, l_pid 1");
	tap_fails(fcntl(fd, F_OFD_GETLK, &l), EINVAL, "F_OFD_GETLK, l_pid 1");
	close(ro);
	close(wo);
}

static void release(int fd)
{
	int fd2 = open(path, O_RDWR), st;
	pid_t pid;

	lk(fd, F_SETLK, F_WRLCK, 0, 10);
	close(fd2);
	tap_ok(other_sees(F_UNLCK, 0, 0, 0, 0, F_WRLCK), "closing another fd "
	       "of the same file drops the process's locks (POSIX)");
	pid = fork();
	if (pid == 0) {
		int cfd = open(path, O_RDWR);

		_exit(lk(cfd, F_SETLK, F_WRLCK, 0, 10) ? 1 : 0);
	}
	waitpid(pid, &st, 0);
	tap_ok(st == 0 && other_sees(F_UNLCK, 0, 0, 0, 0, F_WRLCK),
	       "a child's lock goes with its exit");
	lk(fd, F_SETLK, F_WRLCK, 0, 10);
	pid = fork();
	if (pid == 0) {
		struct flock l = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

		/* not inherited: the child conflicts with its parent */
		_exit(fcntl(fd, F_SETLK, &l) == -1 && errno == EAGAIN ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	tap_ok(st == 0, "record locks are not inherited by fork (EAGAIN)");
	lk(fd, F_SETLK, F_UNLCK, 0, 0);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A child that takes a write lock on [start, start+1) (cmd: F_SETLK or
 * F_OFD_SETLK, or flock if flk), tells us, then holds it for ms (0: until
 * killed) and exits. */
static pid_t holder(int cmd, int flk, off_t start, int ms)
{
	int p[2];
	pid_t pid;
	char c;

	pipe(p);
	pid = fork();
	if (pid == 0) {
		int fd = open(path, O_RDWR);

		if (flk)
			flock(fd, LOCK_EX);
		else
			lk(fd, cmd, F_WRLCK, start, 1);
		write(p[1], "x", 1);
		if (ms)
			usleep(ms * 1000);
		else
			pause();
		_exit(0);
	}
	close(p[1]);
	read(p[0], &c, 1);
	close(p[0]);
	return pid;
}

static void on_usr1(int sig)
{
	(void)sig;
}

/* A child that sends us SIGUSR1 after ms. */
static pid_t signal_later(int ms)
{
	pid_t pid = fork();

	if (pid == 0) {
		usleep(ms * 1000);
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	return pid;
}

static void blocking(int fd)
{
	struct sigaction sa = { .sa_handler = on_usr1 };	/* no SA_RESTART */
	pid_t pid, sig;
	long t;
	int r;

	sigaction(SIGUSR1, &sa, NULL);
	pid = holder(F_SETLK, 0, 0, 300);
	t = now_ms();
	r = lk(fd, F_SETLKW, F_WRLCK, 0, 1);
	t = now_ms() - t;
	tap_ok(r == 0 && t >= 150, "F_SETLKW sleeps until the holder's exit "
	       "frees the byte (%d, %ld ms)", r, t);
	waitpid(pid, NULL, 0);
	lk(fd, F_SETLK, F_UNLCK, 0, 0);

	pid = holder(F_SETLK, 0, 0, 0);
	sig = signal_later(200);
	errno = 0;
	r = lk(fd, F_SETLKW, F_WRLCK, 0, 1);
	tap_ok(r == -1 && errno == EINTR, "a signal ends F_SETLKW: EINTR "
	       "(%d, %s)", r, strerror(errno));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	waitpid(sig, NULL, 0);

	/* Deadlock: we hold 0 and want 1; the child holds 1, waits for 0. */
	lk(fd, F_SETLK, F_WRLCK, 0, 1);
	pid = fork();
	if (pid == 0) {
		int cfd = open(path, O_RDWR);

		lk(cfd, F_SETLK, F_WRLCK, 1, 1);
		_exit(lk(cfd, F_SETLKW, F_WRLCK, 0, 1) ? 1 : 0);
	}
	wait_asleep(pid);
	{
		struct flock l;

		for (int i = 0; i < 500; i++) {	/* until it holds byte 1 */
			if (!getlk_other(F_WRLCK, 1, 1, &l) &&
			    l.l_type == F_WRLCK)
				break;
			usleep(2000);
		}
		wait_asleep(pid);
	}
	errno = 0;
	r = lk(fd, F_SETLKW, F_WRLCK, 1, 1);
	tap_ok(r == -1 && errno == EDEADLK, "F_SETLKW that would close a cycle "
	       "of waits: EDEADLK (%d, %s)", r, strerror(errno));
	lk(fd, F_SETLK, F_UNLCK, 0, 1);
	waitpid(pid, &r, 0);
	tap_ok(r == 0, "the other waiter gets the byte once we let it go (%s)",
	       status_str(r));
	lk(fd, F_SETLK, F_UNLCK, 0, 0);
}

static void ofd(int fd)
{
	int fd2 = open(path, O_RDWR), fd3, st;
	struct flock l = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	pid_t pid;
	long t;

	tap_ok(lk(fd, F_OFD_SETLK, F_WRLCK, 0, 10) == 0, "F_OFD_SETLK");
	tap_fails(lk(fd2, F_OFD_SETLK, F_WRLCK, 5, 1), EAGAIN,
		  "another open file of the same process conflicts");
	tap_fails(lk(fd2, F_SETLK, F_RDLCK, 5, 1), EAGAIN,
		  "so does a classic lock of the same process");
	st = fcntl(fd2, F_OFD_GETLK, &l);
	tap_ok(st == 0 && l.l_type == F_WRLCK &&
	       l.l_pid == -1 && l.l_start == 0 && l.l_len == 10,
	       "F_OFD_GETLK reports it with l_pid -1 (%d %d %ld %ld)",
	       l.l_type, l.l_pid, (long)l.l_start, (long)l.l_len);
	fd3 = dup(fd);
	close(fd2);
	pid = fork();
	if (pid == 0)	/* the same open file: the same owner */
		_exit(lk(fd3, F_OFD_SETLK, F_RDLCK, 2, 2) ? 1 : 0);
	waitpid(pid, &st, 0);
	tap_ok(st == 0, "a child converts the lock through the inherited file");
	tap_ok(other_sees(F_UNLCK, 0, 0, 0, 0, F_WRLCK) == 0,
	       "closing another open file of ours does not drop it");
	close(fd3);
	pid = holder(F_OFD_SETLK, 0, 20, 300);
	t = now_ms();
	st = lk(fd, F_OFD_SETLKW, F_RDLCK, 20, 1);
	t = now_ms() - t;
	tap_ok(st == 0 && t >= 150, "F_OFD_SETLKW waits for the holder "
	       "(%d, %ld ms)", st, t);
	waitpid(pid, NULL, 0);
}

/* After ofd(): fd's OFD locks must go with its last close. */
static void ofd_close(int fd)
{
	int fd2 = open(path, O_RDWR);

	close(fd);
	tap_ok(lk(fd2, F_OFD_SETLK, F_WRLCK, 0, 0) == 0,
	       "the last close of the open file drops its OFD locks");
	close(fd2);
}

static void flocks(void)
{
	int a = open(path, O_RDWR), b = open(path, O_RDONLY), c, st;
	struct sigaction sa = { .sa_handler = on_usr1 };
	pid_t pid, sig;
	long t;

	sigaction(SIGUSR1, &sa, NULL);
	tap_ok(flock(a, LOCK_EX) == 0, "flock LOCK_EX");
	tap_fails(flock(b, LOCK_EX | LOCK_NB), EWOULDBLOCK,
		  "another open file, LOCK_EX|LOCK_NB");
	tap_fails(flock(b, LOCK_SH | LOCK_NB), EWOULDBLOCK,
		  "another open file, LOCK_SH|LOCK_NB");
	tap_ok(lk(b, F_SETLK, F_RDLCK, 0, 0) == 0,
	       "flock and fcntl locks do not see each other");
	lk(b, F_SETLK, F_UNLCK, 0, 0);
	c = dup(a);
	tap_ok(flock(c, LOCK_UN) == 0 && flock(b, LOCK_SH | LOCK_NB) == 0,
	       "a dup shares the lock: LOCK_UN through it frees the file");
	tap_ok(flock(a, LOCK_SH | LOCK_NB) == 0, "two shared locks");
	tap_fails(flock(a, LOCK_EX | LOCK_NB), EWOULDBLOCK,
		  "an upgrade while another holds it shared");
	tap_ok(flock(b, LOCK_EX | LOCK_NB) == 0, "... which dropped ours, as "
	       "Linux's (an upgrade is not atomic)");
	flock(b, LOCK_UN);
	flock(a, LOCK_EX);
	pid = fork();
	if (pid == 0) {
		usleep(300000);
		_exit(0);	/* holds a as well until now */
	}
	close(a);
	close(c);
	tap_fails(flock(b, LOCK_SH | LOCK_NB), EWOULDBLOCK, "the lock stays "
		  "while a child still has the file");
	t = now_ms();
	st = flock(b, LOCK_SH);
	t = now_ms() - t;
	tap_ok(st == 0 && t >= 150, "flock sleeps until the file's last close "
	       "(%d, %ld ms)", st, t);
	waitpid(pid, NULL, 0);
	flock(b, LOCK_UN);
	pid = holder(0, 1, 0, 0);
	sig = signal_later(200);
	errno = 0;
	st = flock(b, LOCK_SH);
	tap_ok(st == -1 && errno == EINTR, "a signal ends a blocked flock: "
	       "EINTR (%s)", strerror(errno));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	waitpid(sig, NULL, 0);
	tap_fails(flock(b, LOCK_SH | LOCK_EX), EINVAL, "LOCK_SH|LOCK_EX");
	tap_fails(flock(99, LOCK_SH), EBADF, "a closed fd");
	close(b);
}

/* SQLite's unix VFS (os_unix.c): a reader takes SHARED (a read lock on
 * PENDING while it reads-locks the SHARED range, then drops PENDING); a
 * writer RESERVED (write lock on that byte), then EXCLUSIVE (PENDING,
 * then the whole SHARED range, which waits for the readers). */
#define PENDING_BYTE	0x40000000
#define RESERVED_BYTE	(PENDING_BYTE + 1)
#define SHARED_FIRST	(PENDING_BYTE + 2)
#define SHARED_SIZE	510

static int sql_shared(int fd)
{
	int r;

	if (lk(fd, F_SETLK, F_RDLCK, PENDING_BYTE, 1))
		return -1;
	r = lk(fd, F_SETLK, F_RDLCK, SHARED_FIRST, SHARED_SIZE);
	lk(fd, F_SETLK, F_UNLCK, PENDING_BYTE, 1);
	return r;
}

static void sqlite(void)
{
	int w = open(path, O_RDWR), p[2], q[2], st;
	struct flock l = { .l_type = F_WRLCK, .l_whence = SEEK_SET,
			   .l_start = RESERVED_BYTE, .l_len = 1 };
	pid_t pid;
	char ch;

	pipe(p);
	pipe(q);
	pid = fork();
	if (pid == 0) {		/* the other connection: a reader */
		int fd = open(path, O_RDWR);

		if (sql_shared(fd))
			_exit(1);
		write(p[1], "s", 1);
		read(q[0], &ch, 1);	/* reads until told */
		lk(fd, F_SETLK, F_UNLCK, SHARED_FIRST, SHARED_SIZE);
		write(p[1], "u", 1);
		read(q[0], &ch, 1);
		_exit(sql_shared(fd) == -1 && errno == EAGAIN ? 0 : 2);
	}
	read(p[0], &ch, 1);
	tap_ok(sql_shared(w) == 0, "SQLite: two connections hold SHARED");
	tap_ok(lk(w, F_SETLK, F_WRLCK, RESERVED_BYTE, 1) == 0,
	       "one takes RESERVED");
	tap_ok(fcntl(w, F_GETLK, &l) == 0 && l.l_type == F_UNLCK,
	       "its own F_GETLK of RESERVED finds nothing (its own lock)");
	tap_ok(lk(w, F_SETLK, F_WRLCK, PENDING_BYTE, 1) == 0,
	       "PENDING: no new readers");
	tap_fails(lk(w, F_SETLK, F_WRLCK, SHARED_FIRST, SHARED_SIZE), EAGAIN,
		  "EXCLUSIVE waits while the reader holds SHARED");
	write(q[1], "g", 1);
	read(p[0], &ch, 1);
	tap_ok(lk(w, F_SETLK, F_WRLCK, SHARED_FIRST, SHARED_SIZE) == 0,
	       "EXCLUSIVE once the reader let go");
	write(q[1], "g", 1);
	waitpid(pid, &st, 0);
	tap_ok(st == 0, "a new reader's SHARED fails on PENDING: EAGAIN (%s)",
	       status_str(st));
	tap_ok(lk(w, F_SETLK, F_RDLCK, SHARED_FIRST, SHARED_SIZE) == 0 &&
	       lk(w, F_SETLK, F_UNLCK, PENDING_BYTE, 2) == 0 &&
	       other_sees(F_RDLCK, SHARED_FIRST, SHARED_SIZE, PENDING_BYTE,
			  0, F_WRLCK),
	       "back to SHARED: the range becomes a read lock in place");
	close(w);
}

int main(void)
{
	int fd;

	tap_plan(56);
	if (test_dir_make("locks"))
		return 1;
	path = at("db");
	fd = open(path, O_RDWR | O_CREAT, 0644);
	write(fd, "0123456789", 10);
	ranges(fd);
	errnos(fd);
	release(fd);
	blocking(fd);
	ofd(fd);
	ofd_close(fd);
	flocks();
	sqlite();
	unlink(path);
	rmdir(test_dir());
	tap_done();
}
