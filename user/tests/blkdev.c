/* user/tests/blkdev.c — a disk's node (/dev/vda, or argv[1]) read and
 * written through read, write, pread, pwrite, lseek, ioctl and fsync, as
 * Linux's block devices behave: reads past the end return 0, writes there
 * ENOSPC, any offset and length work, bad buffers are EFAULT. It writes
 * only to a scratch disk whose first bytes are "ZPK-BLK-SCRATCH SIZE\n"
 * (tests/qemu/blk.sh makes one; on Linux, a loop device of such an
 * image), else skips; the pattern it leaves is checked by blk.sh. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/fs.h>
#include "scratch.h"
#include "ulib.h"

#define PAT_OFF		(1L << 20)	/* the pattern blk.sh checks */
#define PAT_LEN		(64L << 10)
#define ODD_OFF		(PAT_OFF + 4096 + 100)	/* inside it, unaligned */
#define ODD_LEN		1000
#define NCHILD		4
#define CHILD_OFF	(2L << 20)	/* each child's 64 KiB from here */

static unsigned char pat(long off)
{
	return (unsigned char)(off * 7 + 3);
}

static void fill(unsigned char *b, long off, long len)
{
	for (long i = 0; i < len; i++)
		b[i] = pat(off + i);
}

static int same(const unsigned char *b, long off, long len)
{
	for (long i = 0; i < len; i++)
		if (b[i] != pat(off + i))
			return 0;
	return 1;
}

/* The unaligned write's bytes: the pattern's, inverted. */
static int same_inv(const unsigned char *b, long off, long len)
{
	for (long i = 0; i < len; i++)
		if (b[i] != (unsigned char)~pat(off + i))
			return 0;
	return 1;
}

static void sizes(int fd, long long want)
{
	unsigned long long bytes = 0;
	unsigned long sectors = 0;
	int ssz = 0, r;

	r = ioctl(fd, BLKGETSIZE64, &bytes);
	tap_ok(r == 0 && bytes == (unsigned long long)want,
	       "BLKGETSIZE64: %llu, the image's size %lld", bytes, want);
	r = ioctl(fd, BLKGETSIZE, &sectors);
	tap_ok(r == 0 && sectors == (unsigned long)(want / 512),
	       "BLKGETSIZE: %lu sectors", sectors);
	r = ioctl(fd, BLKSSZGET, &ssz);
	tap_ok(r == 0 && ssz == 512, "BLKSSZGET: %d", ssz);
	tap_ok(lseek(fd, 0, SEEK_END) == want, "lseek(0, SEEK_END) is the size");
	tap_fails(lseek(fd, want + 1, SEEK_SET), EINVAL,
		  "lseek past the end");
	tap_fails(ioctl(fd, 0x1234, 0), ENOTTY, "an unknown ioctl");
}

static void pattern(int fd, unsigned char *buf)
{
	fill(buf, PAT_OFF, PAT_LEN);
	tap_ok(pwrite(fd, buf, PAT_LEN, PAT_OFF) == PAT_LEN,
	       "pwrite 64 KiB at 1 MiB");
	memset(buf, 0, PAT_LEN);
	tap_ok(pread(fd, buf, PAT_LEN, PAT_OFF) == PAT_LEN &&
	       same(buf, PAT_OFF, PAT_LEN), "pread gives it back");
	/* Unaligned at both ends: three sectors touched, partly. */
	for (long i = 0; i < ODD_LEN; i++)
		buf[i] = ~pat(ODD_OFF + i);
	tap_ok(pwrite(fd, buf, ODD_LEN, ODD_OFF) == ODD_LEN,
	       "pwrite %d bytes at an odd offset", ODD_LEN);
	memset(buf, 0, 2 * ODD_LEN);
	tap_ok(pread(fd, buf, ODD_LEN + 400, ODD_OFF - 100) == ODD_LEN + 400 &&
	       same(buf, ODD_OFF - 100, 100) &&
	       same_inv(buf + 100, ODD_OFF, ODD_LEN) &&
	       same(buf + 100 + ODD_LEN, ODD_OFF + ODD_LEN, 300),
	       "pread around it: the new bytes, the pattern's on both sides");
	tap_ok(lseek(fd, ODD_OFF + 1, SEEK_SET) == ODD_OFF + 1 &&
	       read(fd, buf, 3) == 3 && same_inv(buf, ODD_OFF + 1, 3) &&
	       lseek(fd, 0, SEEK_CUR) == ODD_OFF + 4,
	       "lseek then read(3): the position moves by 3");
	tap_ok(fsync(fd) == 0, "fsync");
}

static void at_the_end(int fd, long long size, unsigned char *buf)
{
	tap_ok(pread(fd, buf, 4096, size) == 0, "pread at the end: 0");
	tap_ok(pread(fd, buf, 4096, size + 4096) == 0, "pread past it: 0");
	tap_ok(pread(fd, buf, 4096, size - 700) == 700,
	       "pread of 4096 from 700 before the end: 700");
	tap_fails(pwrite(fd, buf, 1, size), ENOSPC, "pwrite at the end");
	fill(buf, size - 10, 10);
	tap_ok(pwrite(fd, buf, 100, size - 10) == 10,
	       "pwrite of 100 from 10 before the end: 10");
	memset(buf, 0, 10);
	tap_ok(pread(fd, buf, 10, size - 10) == 10 && same(buf, size - 10, 10),
	       "... and they read back");
}

static void faults(int fd)
{
	tap_fails(pread(fd, (void *)1, 512, 0), EFAULT, "pread into (void *)1");
	tap_fails(pwrite(fd, (void *)1, 512, 4096), EFAULT,
		  "pwrite from (void *)1");
	tap_fails(ioctl(fd, BLKGETSIZE64, (void *)1), EFAULT,
		  "BLKGETSIZE64 into (void *)1");
}

/* Children write and check their own 64 KiB at once: on several CPUs
 * their requests are in the queue together. */
static void child(int fd, int k)
{
	static unsigned char b[PAT_LEN];
	long off = CHILD_OFF + k * PAT_LEN;

	for (int round = 0; round < 8; round++) {
		fill(b, off + round, PAT_LEN);
		if (pwrite(fd, b, PAT_LEN, off) != PAT_LEN)
			_exit(1);
		memset(b, 0, PAT_LEN);
		if (pread(fd, b, PAT_LEN, off) != PAT_LEN ||
		    !same(b, off + round, PAT_LEN))
			_exit(2);
	}
	_exit(0);
}

static void concurrent(int fd)
{
	int ok = 1, st;

	for (int k = 0; k < NCHILD; k++)
		if (fork() == 0)
			child(fd, k);
	for (int k = 0; k < NCHILD; k++)
		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			ok = 0;
	tap_ok(ok, "%d processes write and read back their own 64 KiB, 8 "
	       "times each, at once", NCHILD);
}

/* Figures, not checks: 1 MiB written and read in one call each. */
static void throughput(int fd, unsigned char *big, long len)
{
	struct timespec t0, t1, t2;

	fill(big, 4L << 20, len);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	tap_ok(pwrite(fd, big, len, 4L << 20) == len, "pwrite 1 MiB");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	tap_ok(pread(fd, big, len, 4L << 20) == len && same(big, 4L << 20, len),
	       "pread it back");
	clock_gettime(CLOCK_MONOTONIC, &t2);
	tap_note("1 MiB: write %.1f MB/s, read %.1f MB/s",
		 len / 1e6 / ((t1.tv_sec - t0.tv_sec) +
			      (t1.tv_nsec - t0.tv_nsec) / 1e9),
		 len / 1e6 / ((t2.tv_sec - t1.tv_sec) +
			      (t2.tv_nsec - t1.tv_nsec) / 1e9));
}

int main(int argc, char **argv)
{
	const char *dev = argc > 1 ? argv[1] : "/dev/vda";
	static unsigned char buf[PAT_LEN], big[1 << 20];
	int fd = open(dev, O_RDWR);
	long long size = fd < 0 ? -1 : scratch_size(fd);

	if (size < 0) {
		tap_plan(1);
		tap_skip("%s is not a scratch disk (%s)", dev,
			 fd < 0 ? strerror(errno) : "no " SCRATCH_MAGIC "line");
		tap_done();
	}
	tap_plan(25);
	sizes(fd, size);
	pattern(fd, buf);
	at_the_end(fd, size, buf);
	faults(fd);
	concurrent(fd);
	throughput(fd, big, sizeof(big));
	tap_ok(close(fd) == 0, "close");
	tap_done();
}
