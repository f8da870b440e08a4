/* user/tests/file_io.c — files in /tmp: create, write, read, lseek, pread,
 * pwrite, O_APPEND, O_TRUNC, O_EXCL, stat sizes, dup offsets, unlink. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ulib.h"

/* The size stat() reports, or -1. */
static long size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) < 0 ? -1 : (long)st.st_size;
}

int main(void)
{
	char path[64], buf[64];
	struct stat st;
	int fd, fd2, err;
	long r;

	tap_plan(28);
	snprintf(path, sizeof(path), "/tmp/file_io.%d", getpid());

	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (!tap_ok(fd >= 0, "open(O_CREAT) in /tmp gives fd %d", fd))
		tap_done();
	tap_ok(write(fd, "hello world", 11) == 11, "write 11 bytes");
	tap_ok(fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 11,
	       "fstat: a regular file of 11 bytes");
	r = read(fd, buf, 1);
	err = errno;
	tap_ok(r == -1 && err == EBADF, "read on an O_WRONLY fd: EBADF (%s)",
	       strerror(err));
	tap_ok(close(fd) == 0, "close");
	r = close(fd);
	err = errno;
	tap_ok(r == -1 && err == EBADF, "close of a closed fd: EBADF");
	tap_ok(size_of(path) == 11, "stat size 11 (%ld)", size_of(path));

	fd = open(path, O_RDONLY);
	memset(buf, 0, sizeof(buf));
	r = read(fd, buf, sizeof(buf));
	tap_ok(r == 11 && memcmp(buf, "hello world", 11) == 0,
	       "read it back (%ld bytes)", r);
	tap_ok(read(fd, buf, sizeof(buf)) == 0, "read at end of file gives 0");
	memset(buf, 0, sizeof(buf));
	r = lseek(fd, 6, SEEK_SET) == 6 && read(fd, buf, 5) == 5;
	tap_ok(r && strcmp(buf, "world") == 0,
	       "lseek(6, SEEK_SET) then read \"%s\"", buf);
	tap_ok(lseek(fd, -5, SEEK_CUR) == 6, "lseek(-5, SEEK_CUR) gives 6");
	tap_ok(lseek(fd, 0, SEEK_END) == 11, "lseek(0, SEEK_END) gives 11");
	r = lseek(fd, -20, SEEK_CUR);
	err = errno;
	tap_ok(r == -1 && err == EINVAL, "lseek before the start: EINVAL (%s)",
	       strerror(err));
	r = write(fd, "x", 1);
	err = errno;
	tap_ok(r == -1 && err == EBADF, "write on an O_RDONLY fd: EBADF (%s)",
	       strerror(err));

	/* dup shares the offset; pread does not move it. */
	fd2 = dup(fd);
	lseek(fd, 0, SEEK_SET);
	tap_ok(fd2 > fd && lseek(fd2, 0, SEEK_CUR) == 0 &&
	       read(fd2, buf, 2) == 2 && lseek(fd, 0, SEEK_CUR) == 2,
	       "dup'd fds share one offset");
	memset(buf, 0, sizeof(buf));
	r = pread(fd, buf, 4, 7) == 4;
	tap_ok(r && strcmp(buf, "orld") == 0 && lseek(fd, 0, SEEK_CUR) == 2,
	       "pread at 7 gives \"%s\", offset unchanged", buf);
	close(fd2);
	close(fd);

	/* O_APPEND writes at the end whatever the offset. */
	fd = open(path, O_WRONLY | O_APPEND);
	lseek(fd, 0, SEEK_SET);
	r = write(fd, "!", 1);
	tap_ok(r == 1 && size_of(path) == 12, "O_APPEND write after lseek(0) "
	       "lands at the end (size %ld)", size_of(path));
	close(fd);
	fd = open(path, O_RDWR);
	r = pwrite(fd, "W", 1, 6) == 1 && pread(fd, buf, 12, 0) == 12;
	tap_ok(r && memcmp(buf, "hello World!", 12) == 0,
	       "pwrite in the middle, pread it all: \"%.12s\"", buf);

	/* Writing past the end leaves a hole of zeros. */
	r = lseek(fd, 20, SEEK_SET) == 20 && write(fd, "end", 3) == 3;
	tap_ok(r && size_of(path) == 23, "write at 20 extends the file to 23 "
	       "(%ld)", size_of(path));
	memset(buf, 1, sizeof(buf));
	tap_ok(pread(fd, buf, 23, 0) == 23 && !memcmp(buf + 12, "\0\0\0\0\0\0"
	       "\0\0end", 11), "the hole reads as zeros");
	close(fd);

	fd = open(path, O_WRONLY | O_TRUNC);
	tap_ok(fd >= 0 && fstat(fd, &st) == 0 && st.st_size == 0,
	       "O_TRUNC empties the file");
	close(fd);

	fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);
	err = errno;
	tap_ok(fd == -1 && err == EEXIST, "O_CREAT|O_EXCL on an existing file: "
	       "EEXIST (%s)", strerror(err));
	tap_ok(unlink(path) == 0, "unlink");
	fd = open(path, O_RDONLY);
	err = errno;
	tap_ok(fd == -1 && err == ENOENT, "open after unlink: ENOENT (%s)",
	       strerror(err));
	r = unlink(path);
	err = errno;
	tap_ok(r == -1 && err == ENOENT, "unlink again: ENOENT");

	/* An unlinked file lives on while it is open. */
	fd = open(path, O_CREAT | O_RDWR, 0644);
	unlink(path);
	tap_ok(fd >= 0 && write(fd, "ghost", 5) == 5 && pread(fd, buf, 5, 0)
	       == 5 && memcmp(buf, "ghost", 5) == 0,
	       "an open, unlinked file can still be written and read");
	close(fd);

	r = stat("/tmp", &st);
	tap_ok(r == 0 && S_ISDIR(st.st_mode), "/tmp is a directory");
	fd = open("/tmp", O_WRONLY);
	err = errno;
	tap_ok(fd == -1 && err == EISDIR, "open(\"/tmp\", O_WRONLY): EISDIR "
	       "(%s)", strerror(err));
	tap_done();
}
