/* user/tests/statx.c — statx (332) as Linux answers it: the basic stats
 * whatever the mask asked, the same figures as stat, the mount id and
 * STATX_ATTR_MOUNT_ROOT, AT_SYMLINK_NOFOLLOW and AT_EMPTY_PATH (a NULL
 * path too, Linux 6.11), its errors in Linux's order; every entry of
 * /proc/self/ (what coreutils' ls -l asks); and fadvise64 (221). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/stat.h>

#include "ulib.h"

/* AT_STATX_FORCE_SYNC and _DONT_SYNC (Linux's fcntl.h). */
#define FORCE_SYNC	0x2000
#define DONT_SYNC	0x4000

static long sx(int dfd, const char *path, int flags, unsigned mask,
	       struct statx *b)
{
	memset(b, 0x5a, sizeof(*b));
	return syscall(SYS_statx, dfd, path, flags, mask, b) ? -errno : 0;
}

/* Every figure statx shares with stat agrees. */
static int same_as_stat(const struct statx *x, const struct stat *st)
{
	return x->stx_ino == st->st_ino && x->stx_mode == st->st_mode &&
	       x->stx_nlink == st->st_nlink && x->stx_uid == st->st_uid &&
	       x->stx_gid == st->st_gid &&
	       x->stx_size == (uint64_t)st->st_size &&
	       x->stx_blocks == (uint64_t)st->st_blocks &&
	       x->stx_blksize == (uint32_t)st->st_blksize &&
	       x->stx_mtime.tv_sec == st->st_mtim.tv_sec &&
	       x->stx_mtime.tv_nsec == (uint32_t)st->st_mtim.tv_nsec &&
	       x->stx_ctime.tv_sec == st->st_ctim.tv_sec &&
	       x->stx_dev_major == major(st->st_dev) &&
	       x->stx_dev_minor == minor(st->st_dev) &&
	       x->stx_rdev_major == major(st->st_rdev) &&
	       x->stx_rdev_minor == minor(st->st_rdev);
}

static void check_figures(const char *file, const char *link)
{
	struct statx x;
	struct stat st;
	long r;

	stat(file, &st);
	r = sx(AT_FDCWD, file, 0, STATX_BASIC_STATS, &x);
	tap_ok(r == 0 && (x.stx_mask & (STATX_BASIC_STATS | STATX_MNT_ID)) == (STATX_BASIC_STATS | STATX_MNT_ID),
	       "a file: the basic stats and the mount id (mask %#x)",
	       x.stx_mask);
	tap_ok(r == 0 && same_as_stat(&x, &st),
	       "its figures are stat's (dev %u:%u, ino %llu, size %llu)",
	       x.stx_dev_major, x.stx_dev_minor,
	       (unsigned long long)x.stx_ino,
	       (unsigned long long)x.stx_size);
	tap_ok((x.stx_mask & STATX_BTIME) || (x.stx_btime.tv_sec == 0 &&
					 x.stx_btime.tv_nsec == 0),
	       "a birth time not given is zero");
	/* Linux 6.13's multigrain timestamps (tmpfs, ext4): the times only
	 * when asked for; before, and elsewhere, every basic stat. */
	r = sx(AT_FDCWD, file, 0, STATX_TYPE, &x);
	tap_ok(r == 0 && (x.stx_mask & (STATX_BASIC_STATS & ~(STATX_MTIME | STATX_CTIME))) ==
	       (STATX_BASIC_STATS & ~(STATX_MTIME | STATX_CTIME)) && x.stx_ino == st.st_ino &&
	       x.stx_size == (uint64_t)st.st_size,
	       "STATX_TYPE alone still gets the other basic stats (%#x)",
	       x.stx_mask);
	tap_ok(((x.stx_mask & STATX_MTIME) || !x.stx_mtime.tv_sec) &&
	       ((x.stx_mask & STATX_CTIME) || !x.stx_ctime.tv_sec),
	       "a time it leaves out is 0 (%#x)", x.stx_mask);
	r = sx(AT_FDCWD, file, 0, STATX_MNT_ID_UNIQUE, &x);
	tap_ok(r == 0 && (x.stx_mask & STATX_MNT_ID_UNIQUE) && !(x.stx_mask & STATX_MNT_ID) &&
	       x.stx_mnt_id >= (1ULL << 31),
	       "STATX_MNT_ID_UNIQUE gives the unique id instead (%#llx)",
	       (unsigned long long)x.stx_mnt_id);

	lstat(link, &st);
	r = sx(AT_FDCWD, link, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &x);
	tap_ok(r == 0 && S_ISLNK(x.stx_mode) && same_as_stat(&x, &st),
	       "AT_SYMLINK_NOFOLLOW: the link itself (size %llu)",
	       (unsigned long long)x.stx_size);
	stat(link, &st);
	r = sx(AT_FDCWD, link, 0, STATX_BASIC_STATS, &x);
	tap_ok(r == 0 && S_ISREG(x.stx_mode) && same_as_stat(&x, &st),
	       "without it, what it leads to");

	stat("/dev/null", &st);
	r = sx(AT_FDCWD, "/dev/null", 0, STATX_BASIC_STATS, &x);
	tap_ok(r == 0 && S_ISCHR(x.stx_mode) && x.stx_rdev_major == 1 &&
	       x.stx_rdev_minor == 3 && same_as_stat(&x, &st),
	       "/dev/null: rdev 1:3 (%u:%u)", x.stx_rdev_major,
	       x.stx_rdev_minor);
}

static void check_fd(const char *file)
{
	struct statx x;
	struct stat st;
	int fd = open(file, O_RDONLY), p[2];
	long r;

	fstat(fd, &st);
	r = sx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &x);
	tap_ok(r == 0 && same_as_stat(&x, &st), "AT_EMPTY_PATH with \"\": "
	       "the descriptor's file (%ld)", r);
	r = sx(fd, NULL, AT_EMPTY_PATH, STATX_BASIC_STATS, &x);
	tap_ok(r == 0 && same_as_stat(&x, &st),
	       "AT_EMPTY_PATH with NULL: the same (%ld)", r);
	tap_ok(sx(fd, "", 0, STATX_BASIC_STATS, &x) == -ENOENT,
	       "\"\" without AT_EMPTY_PATH is ENOENT");
	tap_ok(sx(fd, NULL, 0, STATX_BASIC_STATS, &x) == -EFAULT,
	       "NULL without AT_EMPTY_PATH is EFAULT");
	tap_ok(sx(99, NULL, AT_EMPTY_PATH, STATX_BASIC_STATS, &x) == -EBADF &&
	       sx(99, "x", 0, STATX_BASIC_STATS, &x) == -EBADF,
	       "a bad descriptor is EBADF");
	tap_ok(sx(fd, "x", 0, STATX_BASIC_STATS, &x) == -ENOTDIR,
	       "a relative path from a file is ENOTDIR");
	close(fd);
	pipe(p);
	r = sx(p[0], NULL, AT_EMPTY_PATH, STATX_BASIC_STATS, &x);
	tap_ok(r == 0 && S_ISFIFO(x.stx_mode), "a pipe is S_IFIFO (%ld)", r);
	close(p[0]);
	close(p[1]);
}

static void check_errors(const char *file)
{
	struct statx x;

	tap_ok(sx(AT_FDCWD, (char *)8, 0, STATX__RESERVED, &x) == -EINVAL,
	       "STATX__RESERVED is EINVAL, before the path is read");
	tap_ok(sx(AT_FDCWD, (char *)8, FORCE_SYNC | DONT_SYNC, 0, &x) ==
	       -EINVAL, "both sync types are EINVAL");
	tap_ok(sx(AT_FDCWD, (char *)8, 1, 0, &x) == -EINVAL &&
	       sx(AT_FDCWD, file, 0x10000, 0, &x) == -EINVAL,
	       "an unknown flag is EINVAL");
	tap_ok(sx(AT_FDCWD, file, FORCE_SYNC, 0, &x) == 0 &&
	       sx(AT_FDCWD, file, DONT_SYNC | AT_NO_AUTOMOUNT, 0, &x) == 0,
	       "one sync type, AT_NO_AUTOMOUNT: accepted");
	tap_ok(syscall(SYS_statx, AT_FDCWD, file, 0, STATX_BASIC_STATS, (void *)8) == -1 &&
	       errno == EFAULT, "a bad buffer is EFAULT");
	tap_ok(sx(AT_FDCWD, (char *)8, 0, 0, &x) == -EFAULT,
	       "a bad path is EFAULT");
	tap_ok(sx(AT_FDCWD, "/no/such/file", 0, 0, &x) == -ENOENT,
	       "a missing file is ENOENT");
}

static void check_mounts(const char *file)
{
	struct statx root, proc, f;

	sx(AT_FDCWD, "/", 0, 0, &root);
	sx(AT_FDCWD, "/proc", 0, 0, &proc);
	sx(AT_FDCWD, file, 0, 0, &f);
	tap_ok((root.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) &&
	       (f.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT),
	       "STATX_ATTR_MOUNT_ROOT is always in stx_attributes_mask");
	tap_ok((root.stx_attributes & STATX_ATTR_MOUNT_ROOT) &&
	       (proc.stx_attributes & STATX_ATTR_MOUNT_ROOT) &&
	       !(f.stx_attributes & STATX_ATTR_MOUNT_ROOT),
	       "/ and /proc are mount roots, a file is not");
	tap_ok(proc.stx_mnt_id != root.stx_mnt_id && proc.stx_mnt_id &&
	       root.stx_mnt_id, "/proc's mount id is not /'s (%llu, %llu)",
	       (unsigned long long)proc.stx_mnt_id,
	       (unsigned long long)root.stx_mnt_id);
}

/* ls -l /proc/self/: statx of every entry, the link not followed. */
static void check_proc_self(void)
{
	DIR *d = opendir("/proc/self/");
	struct dirent *e;
	struct statx x;
	char path[300];
	int n = 0, bad = 0;

	while (d && (e = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/self/%s", e->d_name);
		if (sx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS | STATX_MNT_ID, &x)
		    || (x.stx_mask & STATX_BASIC_STATS) != STATX_BASIC_STATS) {
			tap_note("%s: %s", path, strerror(errno));
			bad++;
		}
		n++;
	}
	if (d)
		closedir(d);
	tap_ok(n > 10 && !bad, "every entry of /proc/self/ (%d, %d failed)",
	       n, bad);
}

static long fadv(int fd, long off, long len, int advice)
{
	return syscall(SYS_fadvise64, fd, off, len, advice) ? -errno : 0;
}

static void check_fadvise(const char *file)
{
	int fd = open(file, O_RDONLY), p[2], sv[2], ok = 1;

	for (int a = 0; a <= 5; a++)
		ok &= fadv(fd, 0, 0, a) == 0 && fadv(fd, 4096, 100, a) == 0;
	tap_ok(ok, "fadvise64: each advice 0..5 on a file is 0");
	tap_ok(fadv(fd, 0, 0, 6) == -EINVAL && fadv(fd, 0, 0, -1) == -EINVAL,
	       "an unknown advice is EINVAL");
	tap_ok(fadv(fd, 0, -1, 0) == -EINVAL && fadv(fd, -5, 10, 4) == 0,
	       "a negative length is EINVAL, a negative offset is not");
	pipe(p);
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	tap_ok(fadv(p[0], 0, 0, 0) == -ESPIPE && fadv(p[1], 0, 0, 9) == -ESPIPE,
	       "a pipe is ESPIPE, before the advice is checked");
	tap_ok(fadv(sv[0], 0, 0, 0) == 0, "a socket takes it (0)");
	tap_ok(fadv(99, 0, 0, 9) == -EBADF, "a bad descriptor is EBADF first");
	close(fd);
	fd = open("/proc/self/status", O_RDONLY);
	tap_ok(fadv(fd, 0, 0, 4) == 0, "a /proc file takes it (0)");
	close(fd);
}

int main(void)
{
	const char *file, *link;

	tap_plan(34);
	if (test_dir_make("statx")) {
		tap_ok(0, "cannot make the test's directory");
		tap_done();
	}
	file = strdup(at("file"));
	link = strdup(at("link"));
	write_text(file, "twelve bytes");
	symlink(file, link);
	check_figures(file, link);
	check_fd(file);
	check_errors(file);
	check_mounts(file);
	check_proc_self();
	check_fadvise(file);
	unlink(link);
	unlink(file);
	rmdir(test_dir());
	tap_done();
}
