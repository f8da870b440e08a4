/* user/tests/attr.c — what stat reports and how it changes: chmod,
 * chown (and the set-user-ID bit it drops), utimensat and the times
 * writes and new names set, mknod of FIFOs and devices. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ulib.h"

static struct stat st_of(const char *path)
{
	struct stat st;

	memset(&st, 0, sizeof(st));
	lstat(path, &st);
	return st;
}

static void modes(void)
{
	struct stat st;
	int fd, r;

	write_text(at("f"), "x");
	tap_ok(chmod(at("f"), 0604) == 0 &&
	       st_of(at("f")).st_mode == (S_IFREG | 0604),
	       "chmod 0604 (%o)", st_of(at("f")).st_mode);
	fd = open(at("f"), O_RDONLY);
	tap_ok(fchmod(fd, 04755) == 0 &&
	       st_of(at("f")).st_mode == (S_IFREG | 04755),
	       "fchmod 04755, set-user-ID kept");
	symlink("f", at("l"));
	tap_ok(chmod(at("l"), 0700) == 0 &&
	       st_of(at("f")).st_mode == (S_IFREG | 0700) &&
	       st_of(at("l")).st_mode == (S_IFLNK | 0777),
	       "chmod through a link changes its target");
	fchmod(fd, 04755);
	r = fchown(fd, 12, 34);
	st = st_of(at("f"));
	tap_ok(r == 0 && st.st_uid == 12 && st.st_gid == 34 &&
	       st.st_mode == (S_IFREG | 0755),
	       "fchown 12:34, and the set-user-ID bit goes (%o)", st.st_mode);
	r = chown(at("f"), -1, 56);
	st = st_of(at("f"));
	tap_ok(r == 0 && st.st_uid == 12 && st.st_gid == 56,
	       "chown -1:56 keeps the owner");
	tap_ok(lchown(at("l"), 7, 8) == 0 && st_of(at("l")).st_uid == 7 &&
	       st_of(at("f")).st_uid == 12, "lchown changes the link only");
	tap_ok(fchownat(AT_FDCWD, at("l"), 9, 9, 0) == 0 &&
	       st_of(at("f")).st_uid == 9, "fchownat follows it");
	tap_fails(chmod(at("missing"), 0600), ENOENT,
		  "chmod of a missing name");
	tap_fails(fchmod(99, 0600), EBADF, "fchmod of a bad fd");
	tap_fails(fchownat(AT_FDCWD, at("f"), 0, 0, 0x8000), EINVAL,
		  "fchownat with an unknown flag");
	close(fd);
	if (is_zpk()) {
		tap_fails(chmod("/bin/busybox", 0700), EROFS,
			  "zpk: an initrd file is read-only");
	} else {
		tap_skip("the host's files are its own");
	}
}

static long long mtime_of(const char *path)
{
	struct stat st = st_of(path);

	return st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
}

static void times(void)
{
	struct timespec ts[2] = { { 1000000000, 5 },
				  { 1234567890, 123456789 } };
	long long now = time(NULL), m;
	int fd;

	write_text(at("t"), "x");
	m = mtime_of(at("t")) / 1000000000;
	tap_ok(m >= now - 5 && m <= now + 5, "a new file's mtime is now "
	       "(%lld, now %lld)", m, now);
	tap_ok(utimensat(AT_FDCWD, at("t"), ts, 0) == 0 &&
	       mtime_of(at("t")) == 1234567890123456789LL,
	       "utimensat sets mtime to the nanosecond");
	ts[1].tv_nsec = UTIME_OMIT;
	tap_ok(utimensat(AT_FDCWD, at("t"), ts, 0) == 0 &&
	       mtime_of(at("t")) == 1234567890123456789LL,
	       "UTIME_OMIT keeps it");
	fd = open(at("t"), O_WRONLY | O_APPEND);
	write(fd, "y", 1);
	m = mtime_of(at("t")) / 1000000000;
	tap_ok(m >= now - 5, "a write sets mtime to now (%lld)", m);
	ts[1].tv_nsec = 7;
	tap_ok(futimens(fd, ts) == 0 &&
	       mtime_of(at("t")) == 1234567890000000007LL, "futimens");
	close(fd);
	tap_ok(utimensat(AT_FDCWD, at("t"), NULL, 0) == 0 &&
	       mtime_of(at("t")) / 1000000000 >= now - 5, "NULL times: now");
	utimensat(AT_FDCWD, test_dir(), ts, 0);
	write_text(at("new"), "");
	tap_ok(mtime_of(test_dir()) / 1000000000 >= now - 5,
	       "a new name sets its directory's mtime");
	symlink("t", at("tl"));
	ts[1].tv_nsec = 0;
	tap_ok(utimensat(AT_FDCWD, at("tl"), ts, AT_SYMLINK_NOFOLLOW) == 0 &&
	       mtime_of(at("tl")) == 1234567890000000000LL &&
	       mtime_of(at("t")) != mtime_of(at("tl")),
	       "AT_SYMLINK_NOFOLLOW: the link's own time");
	ts[1].tv_nsec = 1000000000;
	tap_fails(utimensat(AT_FDCWD, at("t"), ts, 0), EINVAL,
		  "a tv_nsec of 1e9");
	tap_fails(utimensat(AT_FDCWD, at("missing"), NULL, 0), ENOENT,
		  "utimensat of a missing name");
}

static void fifos(void)
{
	char buf[8] = "";
	int rd, wr, status;
	pid_t pid;

	tap_ok(mknod(at("fifo"), S_IFIFO | 0600, 0) == 0 &&
	       S_ISFIFO(st_of(at("fifo")).st_mode), "mknod S_IFIFO");
	tap_fails(mkfifo(at("fifo"), 0600), EEXIST, "mkfifo over it");
	tap_fails(open(at("fifo"), O_WRONLY | O_NONBLOCK), ENXIO,
		  "O_WRONLY|O_NONBLOCK without a reader");
	rd = open(at("fifo"), O_RDONLY | O_NONBLOCK);
	wr = open(at("fifo"), O_WRONLY);
	tap_ok(rd >= 0 && wr >= 0 && write(wr, "fifo", 4) == 4 &&
	       read(rd, buf, 8) == 4 && !memcmp(buf, "fifo", 4),
	       "a reader, then a writer: data goes through");
	close(wr);
	tap_ok(read(rd, buf, 8) == 0, "the writer gone: EOF");
	close(rd);
	pid = fork();
	if (pid == 0) {
		int fd = open(at("fifo"), O_WRONLY);	/* waits for us */

		_exit(fd >= 0 && write(fd, "late", 4) == 4 ? 0 : 1);
	}
	rd = open(at("fifo"), O_RDONLY);	/* waits for the child */
	tap_ok(rd >= 0 && read(rd, buf, 8) == 4 && !memcmp(buf, "late", 4),
	       "blocking opens wait for each other");
	waitpid(pid, &status, 0);
	close(rd);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "the writer's side went well");

	tap_ok(mknod(at("null"), S_IFCHR | 0666, makedev(1, 3)) == 0 &&
	       (rd = open(at("null"), O_RDWR)) >= 0 && write(rd, "x", 1) == 1 &&
	       read(rd, buf, 1) == 0, "mknod c 1 3 is a /dev/null");
	tap_ok(st_of(at("null")).st_rdev == makedev(1, 3),
	       "its st_rdev is 1:3");
	close(rd);
	tap_fails(mknod(at("dir"), S_IFDIR | 0755, 0), EPERM,
		  "mknod of a directory");
	tap_fails(mknod(at("odd"), 0170000 | 0644, 0), EINVAL,
		  "mknod of no file type");
	tap_ok(mknod(at("sock"), S_IFSOCK | 0600, 0) == 0 &&
	       S_ISSOCK(st_of(at("sock")).st_mode), "mknod S_IFSOCK");
	tap_fails(open(at("sock"), O_RDWR), ENXIO,
		  "opening it (no socket is bound to it)");
}

/* st_blocks counts the 512-byte blocks a file's pages take: a short
 * file one page (8), a hole none. */
static void blocks(void)
{
	write_text(at("b"), "short");
	tap_ok(st_of(at("b")).st_blocks == 8, "a 5-byte file: 8 blocks (%ld)",
	       (long)st_of(at("b")).st_blocks);
	truncate(at("b"), 1 << 20);
	tap_ok(st_of(at("b")).st_size == 1 << 20 &&
	       st_of(at("b")).st_blocks == 8,
	       "grown to 1 MiB by truncate: still 8 (%ld)",
	       (long)st_of(at("b")).st_blocks);
	unlink(at("b"));
}

/* /dev/urandom: 1:9, random bytes that differ from read to read. */
static void urandom(void)
{
	unsigned char a[64] = { 0 }, b[64] = { 0 }, zero[64] = { 0 };
	int fd = open("/dev/urandom", O_RDONLY);

	tap_ok(fd >= 0 && read(fd, a, 64) == 64 && read(fd, b, 64) == 64 &&
	       memcmp(a, zero, 64) && memcmp(a, b, 64),
	       "/dev/urandom: 64 random bytes, other ones next");
	tap_ok(st_of("/dev/urandom").st_rdev == makedev(1, 9) &&
	       S_ISCHR(st_of("/dev/random").st_mode),
	       "/dev/urandom is 1:9, /dev/random is there too");
	close(fd);
}

int main(void)
{
	const char *names[] = { "f", "l", "t", "tl", "new", "fifo", "null",
				"sock" };

	tap_plan(39);
	if (test_dir_make("attr")) {
		tap_ok(0, "mkdir %s", test_dir());
		tap_done();
	}
	modes();
	times();
	fifos();
	urandom();
	blocks();
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unlink(at(names[i]));
	tap_ok(rmdir(test_dir()) == 0, "the test's directory is empty at last");
	tap_done();
}
