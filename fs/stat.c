/* fs/stat.c — what a name or descriptor is: stat, fstat, newfstatat,
 * lstat, statx, and readlink of links. */
#include <uapi/linux/stat.h>
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/mm.h>
#include <zpk/sched.h>
#include <zpk/slab.h>
#include <zpk/sprintf.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>
#include "internal.h"

/* Linux x86-64's struct stat, 144 bytes. */
struct stat {
	u64 st_dev, st_ino, st_nlink;
	u32 st_mode, st_uid, st_gid, __pad0;
	u64 st_rdev;
	s64 st_size, st_blksize, st_blocks;
	s64 st_atime, st_atime_nsec, st_mtime, st_mtime_nsec;
	s64 st_ctime, st_ctime_nsec;
	s64 __unused[3];
};

/* What stat and statx report of an inode (Linux's struct kstat). */
struct kstat {
	u32 dev, rdev, mode, nlink, uid, gid;
	u64 ino, size, blocks;
	s64 sec, nsec;			/* atime, mtime and ctime alike */
	u32 blksize;
};

/* Linux's generic_fillattr: the inode's attributes, copied so that the
 * copy out (which may fault and sleep) reads no inode. */
static void generic_fillattr(const struct inode *inode, struct kstat *k)
{
	k->dev = inode->i_sb->s_dev;
	k->ino = inode->i_ino;
	k->nlink = inode->i_nlink;
	k->mode = inode->i_mode;
	k->uid = inode->i_uid;
	k->gid = inode->i_gid;
	k->rdev = inode->i_rdev;
	k->size = inode->i_size;
	k->blksize = 4096;
	/* 512-byte blocks of the pages the file has, as tmpfs counts
	 * them: holes take none, directories and links none. */
	k->blocks = ramfs_nr_pages(inode) * (PAGE_SIZE / 512);
	k->sec = (s64)(inode->i_mtime_ns / 1000000000ULL);
	k->nsec = (s64)(inode->i_mtime_ns % 1000000000ULL);
}

static long put_stat(const struct inode *inode, struct stat __user *ust)
{
	struct kstat k;
	struct stat st;

	generic_fillattr(inode, &k);
	memset(&st, 0, sizeof(st));
	st.st_dev = k.dev;
	st.st_ino = k.ino;
	st.st_nlink = k.nlink;
	st.st_mode = k.mode;
	st.st_uid = k.uid;
	st.st_gid = k.gid;
	st.st_rdev = k.rdev;
	st.st_size = (s64)k.size;
	st.st_blksize = k.blksize;
	st.st_blocks = (s64)k.blocks;
	st.st_atime = st.st_mtime = st.st_ctime = k.sec;
	st.st_atime_nsec = st.st_mtime_nsec = st.st_ctime_nsec = k.nsec;
	return copy_to_user(ust, &st, sizeof(st)) ? -EFAULT : 0;
}

static long sys_fstat(int fd, struct stat __user *st)
{
	struct file *f = fget(fd);
	long err;

	if (!f)
		return -EBADF;
	err = put_stat(f->f_inode, st);
	fput(f);
	return err;
}
SYSCALL(__NR_fstat, sys_fstat);

static long sys_newfstatat(int dirfd, const char __user *path,
			   struct stat __user *st, int flags)
{
	struct inode *inode;
	long err;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = user_lookup_at(dirfd, path, flags, &inode);
	return err ? err : put_stat(inode, st);
}
SYSCALL(__NR_newfstatat, sys_newfstatat);

static long sys_stat(const char __user *path, struct stat __user *st)
{
	return sys_newfstatat(AT_FDCWD, path, st, 0);
}
SYSCALL(__NR_stat, sys_stat);

static long sys_lstat(const char __user *path, struct stat __user *st)
{
	return sys_newfstatat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}
SYSCALL(__NR_lstat, sys_lstat);

/* ---- statx ------------------------------------------------------------ */

#define AT_NO_AUTOMOUNT		0x800
#define AT_STATX_SYNC_TYPE	0x6000	/* FORCE_SYNC | DONT_SYNC */
#define MNT_UNIQUE_ID_OFFSET	(1ULL << 31)	/* Linux's first unique id */

/* Linux's dev_t as st_dev encodes it (new_encode_dev), taken apart. */
static u32 dev_major(u32 dev)
{
	return (dev & 0xfff00) >> 8;
}

static u32 dev_minor(u32 dev)
{
	return (dev & 0xff) | ((dev >> 12) & 0xfff00);
}

static void put_ts(struct statx_timestamp *ts, const struct kstat *k)
{
	ts->tv_sec = k->sec;
	ts->tv_nsec = (u32)k->nsec;
}

/*
 * Linux's vfs_statx and cp_statx: the basic stats whatever the mask asked
 * (a file system may give more than asked), but on tmpfs the change and
 * modification times only if asked; the mount's id (the unique one if
 * asked for) and whether the inode is a mount's root; no birth time
 * (zpk's ramfs keeps none, as Linux's ramfs).
 */
static void fill_statx(const struct inode *inode, u32 mask, struct statx *sx)
{
	const struct super_block *sb = inode->i_sb;
	struct kstat k;

	generic_fillattr(inode, &k);
	memset(sx, 0, sizeof(*sx));
	sx->stx_mask = STATX_BASIC_STATS;
	sx->stx_blksize = k.blksize;
	sx->stx_nlink = k.nlink;
	sx->stx_uid = k.uid;
	sx->stx_gid = k.gid;
	sx->stx_mode = (u16)k.mode;
	sx->stx_ino = k.ino;
	sx->stx_size = k.size;
	sx->stx_blocks = k.blocks;
	put_ts(&sx->stx_atime, &k);
	/* Linux 6.13's fill_mg_cmtime: neither time asked, neither given. */
	if (sb->s_mgtime && !(mask & (STATX_CTIME | STATX_MTIME))) {
		sx->stx_mask &= ~(STATX_CTIME | STATX_MTIME);
	} else {
		put_ts(&sx->stx_ctime, &k);
		put_ts(&sx->stx_mtime, &k);
	}
	sx->stx_rdev_major = dev_major(k.rdev);
	sx->stx_rdev_minor = dev_minor(k.rdev);
	sx->stx_dev_major = dev_major(k.dev);
	sx->stx_dev_minor = dev_minor(k.dev);
	sx->stx_attributes_mask = STATX_ATTR_AUTOMOUNT | STATX_ATTR_DAX |
				  STATX_ATTR_MOUNT_ROOT;
	if (sb->s_magic == TMPFS_MAGIC)	/* shmem_getattr's */
		sx->stx_attributes_mask |= STATX_ATTR_APPEND |
			STATX_ATTR_IMMUTABLE | STATX_ATTR_NODUMP;
	if (sb->s_root == inode)
		sx->stx_attributes |= STATX_ATTR_MOUNT_ROOT;
	sx->stx_mnt_id = (u64)sb_mnt_id(sb);
	if (mask & STATX_MNT_ID_UNIQUE) {
		sx->stx_mnt_id += MNT_UNIQUE_ID_OFFSET;
		sx->stx_mask |= STATX_MNT_ID_UNIQUE;
	} else {
		sx->stx_mask |= STATX_MNT_ID;
	}
}

/*
 * statx(dirfd, path, flags, mask, buf): -EINVAL for a reserved mask bit,
 * both sync types or an unknown flag, before the path is read. A NULL
 * path (or "") with AT_EMPTY_PATH is dirfd itself (Linux 6.11's).
 */
static long sys_statx(int dirfd, const char __user *path, unsigned int flags,
		      unsigned int mask, struct statx __user *ubuf)
{
	struct inode *inode;
	struct statx sx;
	long err;

	if (mask & STATX__RESERVED)
		return -EINVAL;
	if ((flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE)
		return -EINVAL;
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH |
		      AT_STATX_SYNC_TYPE))
		return -EINVAL;
	if (!path && (flags & AT_EMPTY_PATH))
		err = fd_inode(dirfd, &inode);
	else
		err = user_lookup_at(dirfd, path, (int)flags, &inode);
	if (err)
		return err;
	fill_statx(inode, mask, &sx);
	return copy_to_user(ubuf, &sx, sizeof(sx)) ? -EFAULT : 0;
}
SYSCALL(__NR_statx, sys_statx);

/* A link's text: its own readlink (a ramfs link, /proc/self), else the
 * path of what it leads to (/proc's exe, cwd, fd/N: Linux's d_path). */
static int link_text(struct inode *link, char *buf, size_t size)
{
	struct inode *target;
	int err;

	if (link->i_op->readlink)
		return link->i_op->readlink(link, buf, size);
	err = link->i_op->get_link(link, &target);
	return err ? err : d_path(target, buf, size);
}

/*
 * readlinkat(2): a link's text, cut to bufsiz, no NUL; its length.
 * -EINVAL for bufsiz <= 0 or a name that is no link, -ENOENT for a /proc
 * link that leads nowhere (exe of a kernel thread, a closed fd).
 */
static long sys_readlinkat(int dirfd, const char __user *path,
			   char __user *buf, int bufsiz)
{
	struct inode *inode;
	char *text;
	long n;

	if (bufsiz <= 0)
		return -EINVAL;
	n = user_lookup_flags(dirfd, path, 0, &inode);
	if (n)
		return n;
	if (!S_ISLNK(inode->i_mode) || !inode->i_op)
		return -EINVAL;
	text = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	n = link_text(inode, text, PATH_MAX);
	if (n > bufsiz)
		n = bufsiz;
	if (n > 0 && copy_to_user(buf, text, n))
		n = -EFAULT;
	kfree(text);
	return n;
}
SYSCALL(__NR_readlinkat, sys_readlinkat);

static long sys_readlink(const char __user *path, char __user *buf,
			 int bufsiz)
{
	return sys_readlinkat(AT_FDCWD, path, buf, bufsiz);
}
SYSCALL(__NR_readlink, sys_readlink);
