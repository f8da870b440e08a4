/* fs/stat.c — what a name or descriptor is: stat, fstat, newfstatat,
 * lstat, and readlink of links. */
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

static long put_stat(const struct inode *inode, struct stat __user *ust)
{
	struct stat st;
	s64 sec = (s64)(inode->i_mtime_ns / 1000000000ULL);
	s64 nsec = (s64)(inode->i_mtime_ns % 1000000000ULL);

	memset(&st, 0, sizeof(st));
	st.st_dev = inode->i_sb->s_dev;
	st.st_ino = inode->i_ino;
	st.st_nlink = inode->i_nlink;
	st.st_mode = inode->i_mode;
	st.st_uid = inode->i_uid;
	st.st_gid = inode->i_gid;
	st.st_rdev = inode->i_rdev;
	st.st_size = (s64)inode->i_size;
	st.st_blksize = 4096;
	/* 512-byte blocks of the pages the file has, as tmpfs counts
	 * them: holes take none, directories and links none. */
	st.st_blocks = (s64)ramfs_nr_pages(inode) * (PAGE_SIZE / 512);
	st.st_atime = st.st_mtime = st.st_ctime = sec;
	st.st_atime_nsec = st.st_mtime_nsec = st.st_ctime_nsec = nsec;
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
