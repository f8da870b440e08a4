/* fs/syscalls.c — the path system calls: open, close, access, cwd,
 * mkdir/unlink/rmdir, umask, truncate, sync; and the user-path helpers
 * (getname, user_lookup) the other files' calls share. */
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

/* Looks up the user path relative to dirfd; follow: through a last
 * component that is a /proc link (else the link itself). */
long user_lookup_flags(int dirfd, const char __user *upath, bool follow,
		       struct inode **res)
{
	struct inode *dir;
	char *path;
	long err = getname_at(dirfd, upath, &dir, &path);

	if (err)
		return err;
	err = follow ? vfs_lookup(dir, path, res)
		     : vfs_lookup_nofollow(dir, path, res);
	kfree(path);
	return err;
}

long user_lookup(int dirfd, const char __user *upath, struct inode **res)
{
	return user_lookup_flags(dirfd, upath, true, res);
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

static long sys_getcwd(char __user *buf, size_t size)
{
	const char *cwd = current->fs->pwd_path[0] ? current->fs->pwd_path : "/";
	size_t len = strlen(cwd) + 1;

	if (size < len)
		return -ERANGE;
	return copy_to_user(buf, cwd, len) ? -EFAULT : (long)len;
}
SYSCALL(__NR_getcwd, sys_getcwd);

/* cwd_path joined with path, with ".", ".." and "//" resolved. */
static void join_path(char *out, size_t size, const char *cwd,
		      const char *path)
{
	char tmp[512];
	const char *s;
	size_t n = 0;

	snprintf(tmp, sizeof(tmp), "%s/%s", path[0] == '/' ? "" : cwd, path);
	out[0] = '\0';
	for (s = tmp; *s;) {
		const char *e;
		size_t len;

		while (*s == '/')
			s++;
		for (e = s; *e && *e != '/'; e++)
			;
		len = (size_t)(e - s);
		if (len == 2 && s[0] == '.' && s[1] == '.') {
			while (n && out[n - 1] != '/')
				n--;
			if (n)
				n--;
		} else if (len && !(len == 1 && s[0] == '.') &&
			   n + len + 2 < size) {
			out[n++] = '/';
			memcpy(out + n, s, len);
			n += len;
		}
		out[n] = '\0';
		s = e;
	}
}

static long set_cwd(struct inode *inode, const char *path)
{
	char newpath[sizeof(current->fs->pwd_path)];

	if (!S_ISDIR(inode->i_mode))
		return -ENOTDIR;
	if (path)
		join_path(newpath, sizeof(newpath), current->fs->pwd_path, path);
	ihold(inode);
	if (current->fs->pwd)
		iput(current->fs->pwd);
	current->fs->pwd = inode;
	if (path)
		strlcpy(current->fs->pwd_path, newpath, sizeof(current->fs->pwd_path));
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
		err = set_cwd(inode, path);
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

/* Files live in RAM: there is nothing to write back. */
static long sys_fsync(int fd)
{
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	fput(f);
	return 0;
}
SYSCALL(__NR_fsync, sys_fsync);
SYSCALL(__NR_fdatasync, sys_fsync);

static long sys_sync(void)
{
	return 0;
}
SYSCALL(__NR_sync, sys_sync);
