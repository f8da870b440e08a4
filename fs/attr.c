/* fs/attr.c — changing what stat reports: chmod, chown (Linux's
 * fs/open.c) and utimensat (fs/utimes.c), with Linux's errnos. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/sched.h>
#include <zpk/syscalls.h>
#include <zpk/time.h>
#include <zpk/uaccess.h>
#include "internal.h"

#define S_ISUID		04000
#define S_ISGID		02000
#define S_IXGRP		00010
#define S_IXUGO		00111
#define UTIME_NOW	((1L << 30) - 1)
#define UTIME_OMIT	((1L << 30) - 2)

/* fd's inode, without a reference (the table keeps it): -EBADF. */
static long fd_file_inode(int fd, struct inode **res)
{
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	*res = f->f_inode;
	fput(f);
	return 0;
}

/* Files the kernel keeps as they are: the initrd's (a read-only file
 * system, as Linux's EROFS). */
static long may_change(const struct inode *inode)
{
	return inode->i_readonly ? -EROFS : 0;
}

static long chmod_inode(struct inode *inode, u32 mode)
{
	long err = may_change(inode);

	/* A memfd's F_SEAL_EXEC keeps the exec bits (Linux's shmem_setattr). */
	if (!err && (inode->i_seals & F_SEAL_EXEC) &&
	    ((inode->i_mode ^ mode) & S_IXUGO))
		err = -EPERM;
	if (!err)
		inode->i_mode = (inode->i_mode & S_IFMT) | (mode & 07777);
	return err;
}

static long sys_fchmodat(int dirfd, const char __user *path, u32 mode)
{
	struct inode *inode;
	long err = user_lookup(dirfd, path, &inode);

	return err ? err : chmod_inode(inode, mode);
}
SYSCALL(__NR_fchmodat, sys_fchmodat);

static long sys_chmod(const char __user *path, u32 mode)
{
	return sys_fchmodat(AT_FDCWD, path, mode);
}
SYSCALL(__NR_chmod, sys_chmod);

static long sys_fchmod(int fd, u32 mode)
{
	struct inode *inode;
	long err = fd_file_inode(fd, &inode);

	return err ? err : chmod_inode(inode, mode);
}
SYSCALL(__NR_fchmod, sys_fchmod);

/*
 * Linux's chown_common: -1 leaves an id as it is; a file that is not a
 * directory loses its set-user-ID bit, and its set-group-ID bit if
 * group-executable, even when root changes it.
 */
static long chown_inode(struct inode *inode, u32 uid, u32 gid)
{
	long err = may_change(inode);

	if (err)
		return err;
	if (uid != (u32)-1)
		inode->i_uid = uid;
	if (gid != (u32)-1)
		inode->i_gid = gid;
	if (!S_ISDIR(inode->i_mode)) {
		inode->i_mode &= ~S_ISUID;
		if (inode->i_mode & S_IXGRP)
			inode->i_mode &= ~S_ISGID;
	}
	return 0;
}

static long sys_fchownat(int dirfd, const char __user *path, u32 uid,
			 u32 gid, int flags)
{
	struct inode *inode;
	long err;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = user_lookup_at(dirfd, path, flags, &inode);
	return err ? err : chown_inode(inode, uid, gid);
}
SYSCALL(__NR_fchownat, sys_fchownat);

static long sys_chown(const char __user *path, u32 uid, u32 gid)
{
	return sys_fchownat(AT_FDCWD, path, uid, gid, 0);
}
SYSCALL(__NR_chown, sys_chown);

static long sys_lchown(const char __user *path, u32 uid, u32 gid)
{
	return sys_fchownat(AT_FDCWD, path, uid, gid, AT_SYMLINK_NOFOLLOW);
}
SYSCALL(__NR_lchown, sys_lchown);

static long sys_fchown(int fd, u32 uid, u32 gid)
{
	struct inode *inode;
	long err = fd_file_inode(fd, &inode);

	return err ? err : chown_inode(inode, uid, gid);
}
SYSCALL(__NR_fchown, sys_fchown);

/* A timespec of utimensat as ns since 1970: UTIME_NOW is now, UTIME_OMIT
 * stays *ns; another tv_nsec outside [0, 1e9) is -EINVAL. */
static long utime_ns(const struct __kernel_timespec *ts, u64 *ns)
{
	if (ts->tv_nsec == UTIME_OMIT)
		return 0;
	if (ts->tv_nsec == UTIME_NOW) {
		*ns = ktime_get_real_ns();
		return 0;
	}
	if (ts->tv_nsec < 0 || ts->tv_nsec >= (long)NSEC_PER_SEC)
		return -EINVAL;
	*ns = (u64)ts->tv_sec * NSEC_PER_SEC + (u64)ts->tv_nsec;
	return 0;
}

/*
 * utimensat(dirfd, path, times, flags): times NULL is now; path NULL is
 * dirfd's own file (futimens). Only the modification time is kept: stat
 * shows it as atime and ctime too, so times[0] (atime) is checked and
 * dropped. Both UTIME_OMIT: nothing to do, as Linux returns at once.
 */
static long sys_utimensat(int dirfd, const char __user *path,
			  const struct __kernel_timespec __user *utimes,
			  int flags)
{
	struct __kernel_timespec ts[2];
	struct inode *inode;
	u64 atime, mtime;
	long err;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if (!utimes) {
		ts[0].tv_nsec = ts[1].tv_nsec = UTIME_NOW;
	} else if (copy_from_user(ts, utimes, sizeof(ts))) {
		return -EFAULT;
	}
	if (ts[0].tv_nsec == UTIME_OMIT && ts[1].tv_nsec == UTIME_OMIT)
		return 0;
	if (!path)	/* futimens; with AT_FDCWD Linux looks up NULL */
		err = dirfd == AT_FDCWD ? -EFAULT
					: fd_file_inode(dirfd, &inode);
	else
		err = user_lookup_at(dirfd, path, flags, &inode);
	if (err)
		return err;
	mtime = inode->i_mtime_ns;
	err = utime_ns(&ts[0], &atime);
	if (!err)
		err = utime_ns(&ts[1], &mtime);
	if (!err)
		err = may_change(inode);
	if (!err)
		inode->i_mtime_ns = mtime;
	return err;
}
SYSCALL(__NR_utimensat, sys_utimensat);
