/* fs/syscalls.c — the path system calls: open, close, access, cwd,
 * mkdir/symlink/link/unlink/rmdir/rename, umask, truncate, sync; and
 * the user-path helpers (getname, user_lookup) the other files' calls
 * share. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/sched.h>
#include <zpk/slab.h>
#include <zpk/sprintf.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>
#include "internal.h"

#define F_OK	0
#define X_OK	1
#define W_OK	2
#define R_OK	4

struct inode *current_cwd(void)
{
	return current->fs->pwd;	/* NULL is the root */
}

/* A user path into a new kernel buffer (kfree it); "" is -ENOENT. */
long getname(const char __user *upath, char **res)
{
	char *p = kmalloc(PATH_MAX, GFP_KERNEL);
	long n;

	if (!p)
		return -ENOMEM;
	n = strncpy_from_user(p, upath, PATH_MAX);
	if (n <= 0) {
		kfree(p);
		return n ? n : -ENOENT;
	}
	*res = p;
	return 0;
}

/* The directory an *at call starts from: cwd, or dirfd's directory. */
long at_dir(int dirfd, const char *path, struct inode **dir)
{
	struct file *f;

	*dir = current_cwd();
	if (path[0] == '/' || dirfd == AT_FDCWD)
		return 0;
	f = fget(dirfd);
	if (!f)
		return -EBADF;
	*dir = f->f_inode;	/* alive: lookups do not sleep */
	fput(f);
	return S_ISDIR((*dir)->i_mode) ? 0 : -ENOTDIR;
}

/* The user path of an *at call and the directory it starts from: 0 with
 * *path to kfree, or -errno (as getname, at_dir) with nothing to free. */
long getname_at(int dirfd, const char __user *upath, struct inode **dir,
		char **path)
{
	long err = getname(upath, path);

	if (err)
		return err;
	err = at_dir(dirfd, *path, dir);
	if (err)
		kfree(*path);
	return err;
}

/* The inode of dirfd itself (AT_FDCWD: the cwd), without a reference:
 * the descriptor table keeps it while we do not sleep. */
long fd_inode(int dirfd, struct inode **res)
{
	struct file *f;

	if (dirfd == AT_FDCWD) {
		*res = current_cwd() ? current_cwd() : vfs_root;
		return 0;
	}
	f = fget(dirfd);
	if (!f)
		return -EBADF;
	*res = f->f_inode;
	fput(f);
	return 0;
}

/* Looks up the user path relative to dirfd. LOOKUP_FOLLOW: through a
 * last link (else the link itself); LOOKUP_EMPTY: "" is dirfd's file. */
long user_lookup_flags(int dirfd, const char __user *upath,
		       unsigned int lookup, struct inode **res)
{
	struct inode *dir;
	char *path;
	long err = getname_at(dirfd, upath, &dir, &path);

	if (err == -ENOENT && (lookup & LOOKUP_EMPTY))
		return fd_inode(dirfd, res);	/* getname's "" */
	if (err)
		return err;
	if (lookup & LOOKUP_FOLLOW)
		err = vfs_lookup(dir, path, res);
	else
		err = vfs_lookup_nofollow(dir, path, res);
	kfree(path);
	return err;
}

int user_file_open(const char __user *upath, int flags, struct file **res)
{
	struct inode *dir;
	char *path;
	long err = getname_at(AT_FDCWD, upath, &dir, &path);

	if (err)
		return err;
	err = vfs_open_at(dir, path, flags, 0, res);
	kfree(path);
	return err;
}

long user_lookup(int dirfd, const char __user *upath, struct inode **res)
{
	return user_lookup_flags(dirfd, upath, LOOKUP_FOLLOW, res);
}

long user_lookup_at(int dirfd, const char __user *upath, int at_flags,
		    struct inode **res)
{
	return user_lookup_flags(dirfd, upath,
			(at_flags & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW) |
			(at_flags & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0), res);
}

/* ---- open and close ------------------------------------------------- */

static long do_openat(int dirfd, const char __user *upath, int flags,
		      u32 mode)
{
	struct inode *dir;
	struct file *f;
	char *path;
	long err = getname_at(dirfd, upath, &dir, &path);
	int fd;

	if (err)
		return err;
	err = vfs_open_at(dir, path, flags, mode & ~current->fs->umask & 07777,
			  &f);
	kfree(path);
	if (err)
		return err;
	fd = fd_install_new(f, 0, flags & O_CLOEXEC);
	if (fd < 0)
		fput(f);
	return fd;
}

static long sys_open(const char __user *path, int flags, u32 mode)
{
	return do_openat(AT_FDCWD, path, flags, mode);
}
SYSCALL(__NR_open, sys_open);

static long sys_openat(int dirfd, const char __user *path, int flags,
		       u32 mode)
{
	return do_openat(dirfd, path, flags, mode);
}
SYSCALL(__NR_openat, sys_openat);

static long sys_creat(const char __user *path, u32 mode)
{
	return do_openat(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, mode);
}
SYSCALL(__NR_creat, sys_creat);

static long sys_close(int fd)
{
	return close_fd(fd);
}
SYSCALL(__NR_close, sys_close);

#define CLOSE_RANGE_UNSHARE	(1U << 1)
#define CLOSE_RANGE_CLOEXEC	(1U << 2)

/* close_range(2) as Linux's: the open descriptors of [fd, max_fd] are
 * closed, or with CLOSE_RANGE_CLOEXEC marked close-on-exec; with
 * CLOSE_RANGE_UNSHARE a shared table is copied first, so that only the
 * caller's changes (python's subprocess calls it in the child). -EINVAL
 * for another flag or fd > max_fd, -ENOMEM. */
static long sys_close_range(unsigned int fd, unsigned int max_fd,
			    unsigned int flags)
{
	struct files_struct *files;

	if (flags & ~(CLOSE_RANGE_UNSHARE | CLOSE_RANGE_CLOEXEC))
		return -EINVAL;
	if (fd > max_fd)
		return -EINVAL;
	if ((flags & CLOSE_RANGE_UNSHARE) && unshare_files())
		return -ENOMEM;
	files = current_files();
	max_fd = min(max_fd, (unsigned int)NR_OPEN_DEFAULT - 1);
	for (unsigned int i = fd; i <= max_fd; i++) {
		if (!files->fd[i])
			continue;
		if (flags & CLOSE_RANGE_CLOEXEC)
			files->close_on_exec |= 1ULL << i;
		else
			close_fd((int)i);
	}
	return 0;
}
SYSCALL(__NR_close_range, sys_close_range);

/* Everything runs as root: only read-only files and missing x bits say
 * no, as they do to root on Linux. */
static long sys_faccessat(int dirfd, const char __user *path, int mode)
{
	struct inode *inode;
	long err;

	if (mode & ~(R_OK | W_OK | X_OK))
		return -EINVAL;
	err = user_lookup(dirfd, path, &inode);
	if (err)
		return err;
	if ((mode & W_OK) && inode->i_readonly)
		return -EROFS;
	if ((mode & X_OK) && !S_ISDIR(inode->i_mode) &&
	    !(inode->i_mode & 0111))
		return -EACCES;
	return 0;
}
SYSCALL(__NR_faccessat, sys_faccessat);

static long sys_access(const char __user *path, int mode)
{
	return sys_faccessat(AT_FDCWD, path, mode);
}
SYSCALL(__NR_access, sys_access);

/* Linux's getcwd: the cwd's path now (renames included), -ENOENT once
 * it is removed, -ERANGE if size is short. */
static long sys_getcwd(char __user *buf, size_t size)
{
	char *path = kmalloc(PATH_MAX, GFP_KERNEL);
	struct inode *cwd = current_cwd() ? current_cwd() : vfs_root;
	long len;

	if (!path)
		return -ENOMEM;
	len = cwd->i_nlink ? d_path(cwd, path, PATH_MAX) : -ENOENT;
	if (len >= 0 && size < (size_t)len + 1)
		len = -ERANGE;
	else if (len >= 0 && copy_to_user(buf, path, len + 1))
		len = -EFAULT;
	else if (len >= 0)
		len++;
	kfree(path);
	return len;
}
SYSCALL(__NR_getcwd, sys_getcwd);

static long set_cwd(struct inode *inode)
{
	if (!S_ISDIR(inode->i_mode))
		return -ENOTDIR;
	ihold(inode);
	if (current->fs->pwd)
		iput(current->fs->pwd);
	current->fs->pwd = inode;
	return 0;
}

static long sys_chdir(const char __user *upath)
{
	struct inode *inode;
	char *path;
	long err = getname(upath, &path);

	if (err)
		return err;
	err = vfs_lookup(current_cwd(), path, &inode);
	if (!err)
		err = set_cwd(inode);
	kfree(path);
	return err;
}
SYSCALL(__NR_chdir, sys_chdir);

static long sys_mkdirat(int dirfd, const char __user *upath, u32 mode)
{
	struct inode *dir;
	char *path;
	long err = getname_at(dirfd, upath, &dir, &path);

	if (err)
		return err;
	err = vfs_mkdir(dir, path, mode & ~current->fs->umask);
	kfree(path);
	return err;
}
SYSCALL(__NR_mkdirat, sys_mkdirat);

static long sys_mkdir(const char __user *path, u32 mode)
{
	return sys_mkdirat(AT_FDCWD, path, mode);
}
SYSCALL(__NR_mkdir, sys_mkdir);

/* The operations of a node mknod makes; -EPERM for a directory, as
 * Linux's may_mknod, -EINVAL for a type that is none. Block devices
 * have no driver here: they open as -ENXIO, as unknown character ones. */
static long mknod_fops(u32 mode, u32 rdev,
		       const struct file_operations **fop)
{
	switch (mode & S_IFMT) {
	case 0:
	case S_IFREG:
		*fop = &ramfs_file_ops;
		return 0;
	case S_IFIFO:
		*fop = &pipe_fops;
		return 0;
	case S_IFCHR:
	case S_IFBLK:
		*fop = chrdev_fops((mode & S_IFMT) == S_IFCHR ? rdev : 0);
		return 0;
	case S_IFSOCK:		/* bound by no socket: Linux's bad_sock_fops */
		*fop = &no_device_fops;
		return 0;
	case S_IFDIR:
		return -EPERM;
	}
	return -EINVAL;
}

/* Linux's new_decode_dev: user dev_t to major and minor. */
static u32 decode_dev(u32 dev)
{
	return MKDEV((dev >> 8) & 0xfff,
		     (dev & 0xff) | ((dev >> 12) & 0xfff00));
}

static long sys_mknodat(int dirfd, const char __user *upath, u32 mode,
			u32 dev)
{
	const struct file_operations *fop;
	struct inode *dir;
	char *path;
	long err = mknod_fops(mode, decode_dev(dev), &fop);

	if (err)
		return err;
	if (!(mode & S_IFMT))
		mode |= S_IFREG;
	err = getname_at(dirfd, upath, &dir, &path);
	if (err)
		return err;
	err = vfs_mknod(dir, path, mode & (S_IFMT | ~current->fs->umask),
			decode_dev(dev), fop);
	kfree(path);
	return err;
}
SYSCALL(__NR_mknodat, sys_mknodat);

static long sys_mknod(const char __user *path, u32 mode, u32 dev)
{
	return sys_mknodat(AT_FDCWD, path, mode, dev);
}
SYSCALL(__NR_mknod, sys_mknod);

static long sys_symlinkat(const char __user *utarget, int dirfd,
			  const char __user *upath)
{
	struct inode *dir;
	char *target, *path;
	long err = getname(utarget, &target);

	if (err)
		return err;
	err = getname_at(dirfd, upath, &dir, &path);
	if (!err) {
		err = vfs_symlink(dir, target, strlen(target), path);
		kfree(path);
	}
	kfree(target);
	return err;
}
SYSCALL(__NR_symlinkat, sys_symlinkat);

static long sys_symlink(const char __user *target, const char __user *path)
{
	return sys_symlinkat(target, AT_FDCWD, path);
}
SYSCALL(__NR_symlink, sys_symlink);

#define AT_SYMLINK_FOLLOW	0x400

/* linkat(2): the old name's last link is followed only with
 * AT_SYMLINK_FOLLOW; AT_EMPTY_PATH links olddirfd's own file. */
static long sys_linkat(int olddirfd, const char __user *oldpath,
		       int newdirfd, const char __user *upath, int flags)
{
	struct inode *old, *dir;
	char *path;
	long err;

	if (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = user_lookup_flags(olddirfd, oldpath,
			(flags & AT_SYMLINK_FOLLOW ? LOOKUP_FOLLOW : 0) |
			(flags & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0), &old);
	if (err)
		return err;
	err = getname_at(newdirfd, upath, &dir, &path);
	if (err)
		return err;
	err = vfs_link(old, dir, path);
	kfree(path);
	return err;
}
SYSCALL(__NR_linkat, sys_linkat);

static long sys_link(const char __user *oldpath, const char __user *newpath)
{
	return sys_linkat(AT_FDCWD, oldpath, AT_FDCWD, newpath, 0);
}
SYSCALL(__NR_link, sys_link);

static long sys_renameat2(int olddirfd, const char __user *uold,
			  int newdirfd, const char __user *unew,
			  unsigned int flags)
{
	struct inode *odir, *ndir;
	char *old, *new;
	long err;

	if ((flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE)) ||
	    flags == (RENAME_NOREPLACE | RENAME_EXCHANGE))
		return -EINVAL;
	err = getname_at(olddirfd, uold, &odir, &old);
	if (err)
		return err;
	err = getname_at(newdirfd, unew, &ndir, &new);
	if (!err) {
		err = vfs_rename(odir, old, ndir, new, flags);
		kfree(new);
	}
	kfree(old);
	return err;
}
SYSCALL(__NR_renameat2, sys_renameat2);

static long sys_renameat(int olddirfd, const char __user *oldpath,
			 int newdirfd, const char __user *newpath)
{
	return sys_renameat2(olddirfd, oldpath, newdirfd, newpath, 0);
}
SYSCALL(__NR_renameat, sys_renameat);

static long sys_rename(const char __user *oldpath,
		       const char __user *newpath)
{
	return sys_renameat2(AT_FDCWD, oldpath, AT_FDCWD, newpath, 0);
}
SYSCALL(__NR_rename, sys_rename);

static long sys_unlinkat(int dirfd, const char __user *upath, int flags)
{
	struct inode *dir;
	char *path;
	long err;

	if (flags & ~AT_REMOVEDIR)
		return -EINVAL;
	err = getname_at(dirfd, upath, &dir, &path);
	if (err)
		return err;
	err = flags & AT_REMOVEDIR ? vfs_rmdir(dir, path)
				   : vfs_unlink(dir, path);
	kfree(path);
	return err;
}
SYSCALL(__NR_unlinkat, sys_unlinkat);

static long sys_unlink(const char __user *path)
{
	return sys_unlinkat(AT_FDCWD, path, 0);
}
SYSCALL(__NR_unlink, sys_unlink);

static long sys_rmdir(const char __user *path)
{
	return sys_unlinkat(AT_FDCWD, path, AT_REMOVEDIR);
}
SYSCALL(__NR_rmdir, sys_rmdir);

static long sys_umask(u32 mask)
{
	u32 old = current->fs->umask;

	current->fs->umask = mask & 0777;
	return old;
}
SYSCALL(__NR_umask, sys_umask);

/* ---- sizes and syncing ---------------------------------------------- */

static long sys_ftruncate(int fd, loff_t len)
{
	struct file *f = fget(fd);
	long r;

	if (!f)
		return -EBADF;
	r = (f->f_flags & O_ACCMODE) == O_RDONLY ? -EINVAL
						: ramfs_truncate(f->f_inode, len);
	fput(f);
	return r;
}
SYSCALL(__NR_ftruncate, sys_ftruncate);

/* Linux's vfs_fallocate checks, in its order, then shmem's modes. */
long vfs_fallocate(struct file *f, int mode, loff_t offset, loff_t len)
{
	struct inode *inode = f->f_inode;

	if (offset < 0 || len <= 0)
		return -EINVAL;
	if (mode & ~FALLOC_FL_LINUX_MODES)
		return -EOPNOTSUPP;
	if ((mode & FALLOC_FL_PUNCH_HOLE) && !(mode & FALLOC_FL_KEEP_SIZE))
		return -EOPNOTSUPP;
	if ((f->f_flags & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (S_ISFIFO(inode->i_mode))
		return -ESPIPE;
	if (S_ISDIR(inode->i_mode))
		return -EISDIR;
	if (!S_ISREG(inode->i_mode))
		return -ENODEV;
	if (offset + len < 0)
		return -EFBIG;
	if (f->f_op != &ramfs_file_ops ||
	    (mode & ~(FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE)))
		return -EOPNOTSUPP;
	return ramfs_fallocate(inode, mode, offset, len);
}

static long sys_fallocate(int fd, int mode, loff_t offset, loff_t len)
{
	struct file *f = fget(fd);
	long r;

	if (!f)
		return -EBADF;
	r = vfs_fallocate(f, mode, offset, len);
	fput(f);
	return r;
}
SYSCALL(__NR_fallocate, sys_fallocate);

static long sys_truncate(const char __user *path, loff_t len)
{
	struct inode *inode;
	long err = user_lookup(AT_FDCWD, path, &inode);

	return err ? err : vfs_truncate(inode, len);
}
SYSCALL(__NR_truncate, sys_truncate);

/* Files live in RAM: there is nothing to write back, but for a disk's
 * cache (its f_op->fsync). */
static long sys_fsync(int fd)
{
	struct file *f = fget(fd);
	long r = 0;

	if (!f)
		return -EBADF;
	if (f->f_op->fsync)
		r = f->f_op->fsync(f);
	fput(f);
	return r;
}
SYSCALL(__NR_fsync, sys_fsync);
SYSCALL(__NR_fdatasync, sys_fsync);

static long sys_sync(void)
{
	return 0;
}
SYSCALL(__NR_sync, sys_sync);
