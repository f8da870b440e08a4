/* fs/syscalls.c — the path and descriptor system calls: open, stat,
 * getdents64, cwd, mkdir/unlink, dup, fcntl, ioctl, pipe, truncate. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/sched.h>
#include <zpk/slab.h>
#include <zpk/sprintf.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>

#define AT_SYMLINK_NOFOLLOW	0x100
#define AT_REMOVEDIR		0x200
#define AT_EACCESS		0x200
#define AT_EMPTY_PATH		0x1000
#define F_OK	0
#define X_OK	1
#define W_OK	2
#define R_OK	4

struct inode *current_cwd(void)
{
	return current->cwd;	/* NULL is the root */
}

/* A user path into a new kernel buffer (kfree it); "" is -ENOENT. */
static long getname(const char __user *upath, char **res)
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
static long at_dir(int dirfd, const char *path, struct inode **dir)
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

/* Looks up the user path relative to dirfd; follow: through a last
 * component that is a /proc link (else the link itself). */
static long user_lookup_flags(int dirfd, const char __user *upath,
			      bool follow, struct inode **res)
{
	struct inode *dir;
	char *path;
	long err = getname(upath, &path);

	if (err)
		return err;
	err = at_dir(dirfd, path, &dir);
	if (!err)
		err = follow ? vfs_lookup(dir, path, res)
			     : vfs_lookup_nofollow(dir, path, res);
	kfree(path);
	return err;
}

static long user_lookup(int dirfd, const char __user *upath,
			struct inode **res)
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
	long err = getname(upath, &path);
	int fd;

	if (err)
		return err;
	err = at_dir(dirfd, path, &dir);
	if (!err)
		err = vfs_open_at(dir, path, flags,
				  mode & ~current->umask & 07777, &f);
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

/* ---- stat ----------------------------------------------------------- */

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
	st.st_dev = 1;
	st.st_ino = inode->i_ino;
	st.st_nlink = inode->i_nlink;
	st.st_mode = inode->i_mode;
	st.st_rdev = inode->i_rdev;
	st.st_size = (s64)inode->i_size;
	st.st_blksize = 4096;
	st.st_blocks = (s64)(inode->i_size + 511) / 512;
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
	char c;
	long err;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if ((flags & AT_EMPTY_PATH) && !copy_from_user(&c, path, 1) && !c)
		return dirfd == AT_FDCWD ? put_stat(current_cwd() ? current_cwd()
						      : vfs_root, st)
					 : sys_fstat(dirfd, st);
	err = user_lookup_flags(dirfd, path, !(flags & AT_SYMLINK_NOFOLLOW),
				&inode);
	return err ? err : put_stat(inode, st);
}
SYSCALL(__NR_newfstatat, sys_newfstatat);

static long sys_stat(const char __user *path, struct stat __user *st)
{
	return sys_newfstatat(AT_FDCWD, path, st, 0);
}
SYSCALL(__NR_stat, sys_stat);

/* Only /proc has links (ramfs has none), so elsewhere lstat is stat. */
static long sys_lstat(const char __user *path, struct stat __user *st)
{
	return sys_newfstatat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}
SYSCALL(__NR_lstat, sys_lstat);

/*
 * readlinkat(2): the text of a /proc link, cut to bufsiz, no NUL; its
 * length. -EINVAL for bufsiz <= 0 or a name that is no link (every ramfs
 * file), -ENOENT for a process without memory (exe of a kernel thread).
 */
static long sys_readlinkat(int dirfd, const char __user *path,
			   char __user *buf, int bufsiz)
{
	struct inode *inode;
	char *text;
	long n;

	if (bufsiz <= 0)
		return -EINVAL;
	n = user_lookup_flags(dirfd, path, false, &inode);
	if (n)
		return n;
	if (!inode->i_op || !inode->i_op->readlink)
		return -EINVAL;
	text = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	n = inode->i_op->readlink(inode, text, PATH_MAX);
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

/* ---- directories ---------------------------------------------------- */

#define DT_FIFO	1
#define DT_CHR	2
#define DT_DIR	4
#define DT_REG	8
#define DT_LNK	10

static u8 dtype(u32 mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR: return DT_DIR;
	case S_IFCHR: return DT_CHR;
	case S_IFIFO: return DT_FIFO;
	case S_IFLNK: return DT_LNK;
	}
	return DT_REG;
}

/* One linux_dirent64 record into buf at *used; false if it won't fit. */
static bool emit_dirent(char *buf, size_t size, size_t *used, u64 ino,
			s64 off, u8 type, const char *name, size_t len)
{
	size_t reclen = (19 + len + 1 + 7) & ~7UL;
	char *p = buf + *used;

	if (*used + reclen > size)
		return false;
	memset(p, 0, reclen);
	memcpy(p, &ino, 8);
	memcpy(p + 8, &off, 8);
	memcpy(p + 16, &(u16){ (u16)reclen }, 2);
	p[18] = (char)type;
	memcpy(p + 19, name, len);
	*used += reclen;
	return true;
}

/* /proc's made-up entries come after its nstored stored ones. */
static long dir_fill_dynamic(struct file *f, char *buf, size_t size,
			     size_t used, s64 nstored)
{
	struct inode *dir = f->f_inode;
	struct dir_entry de;

	while (dir->i_op->readdir(dir, f->f_pos - 2 - nstored, &de)) {
		if (!emit_dirent(buf, size, &used, de.ino, f->f_pos + 1,
				 dtype(de.mode), de.name, de.len))
			return used ? (long)used : -EINVAL;
		f->f_pos++;
	}
	return (long)used;
}

/*
 * Entries from index f_pos on: 0 is ".", 1 is "..", then the names in
 * list order. Fills buf (kernel) and returns the bytes used; -EINVAL if
 * not even one record fits.
 */
long dir_fill(struct file *f, char *buf, size_t size)
{
	struct inode *dir = f->f_inode;
	struct inode *parent = dir->i_parent ? dir->i_parent : dir;
	struct dentry *d;
	size_t used = 0;
	s64 idx = 0;

	for (; f->f_pos < 2; f->f_pos++) {
		bool dot = f->f_pos == 0;

		if (!emit_dirent(buf, size, &used, dot ? dir->i_ino
						     : parent->i_ino,
				 f->f_pos + 1, DT_DIR, "..", dot ? 1 : 2))
			return used ? (long)used : -EINVAL;
	}
	list_for_each_entry(d, &dir->i_children, d_list) {
		if (idx++ < f->f_pos - 2)
			continue;
		if (!emit_dirent(buf, size, &used, d->d_inode->i_ino,
				 f->f_pos + 1, dtype(d->d_inode->i_mode),
				 d->d_name, d->d_len))
			return used ? (long)used : -EINVAL;
		f->f_pos++;
	}
	if (dir->i_op && dir->i_op->readdir)
		return dir_fill_dynamic(f, buf, size, used, idx);
	return (long)used;
}

static long sys_getdents64(int fd, void __user *dirp, unsigned int count)
{
	struct file *f = fget(fd);
	size_t size = min((size_t)count, (size_t)PAGE_SIZE);
	char *buf;
	long n;

	if (!f)
		return -EBADF;
	n = -ENOTDIR;
	if (!S_ISDIR(f->f_inode->i_mode))
		goto out;
	n = -ENOMEM;
	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		goto out;
	n = dir_fill(f, buf, size);
	if (n > 0 && copy_to_user(dirp, buf, n))
		n = -EFAULT;
	kfree(buf);
out:
	fput(f);
	return n;
}
SYSCALL(__NR_getdents64, sys_getdents64);

static long sys_getcwd(char __user *buf, size_t size)
{
	const char *cwd = current->cwd_path[0] ? current->cwd_path : "/";
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
	char newpath[sizeof(current->cwd_path)];

	if (!S_ISDIR(inode->i_mode))
		return -ENOTDIR;
	if (path)
		join_path(newpath, sizeof(newpath), current->cwd_path, path);
	ihold(inode);
	if (current->cwd)
		iput(current->cwd);
	current->cwd = inode;
	if (path)
		strlcpy(current->cwd_path, newpath, sizeof(current->cwd_path));
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
	long err = getname(upath, &path);

	if (err)
		return err;
	err = at_dir(dirfd, path, &dir);
	if (!err)
		err = vfs_mkdir(dir, path, mode & ~current->umask);
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
	err = getname(upath, &path);
	if (err)
		return err;
	err = at_dir(dirfd, path, &dir);
	if (!err)
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
	u32 old = current->umask;

	current->umask = mask & 0777;
	return old;
}
SYSCALL(__NR_umask, sys_umask);

/* ---- descriptors ---------------------------------------------------- */

static long sys_dup(int fd)
{
	struct file *f = fget(fd);
	int r;

	if (!f)
		return -EBADF;
	r = fd_install_new(f, 0, false);
	if (r < 0)
		fput(f);
	return r;
}
SYSCALL(__NR_dup, sys_dup);

static long sys_dup3(int oldfd, int newfd, int flags)
{
	struct file *f;

	if ((flags & ~O_CLOEXEC) || oldfd == newfd)
		return -EINVAL;
	if (newfd < 0 || newfd >= NR_OPEN_DEFAULT)
		return -EBADF;
	f = fget(oldfd);
	if (!f)
		return -EBADF;
	return fd_install_at(f, newfd, flags & O_CLOEXEC);
}
SYSCALL(__NR_dup3, sys_dup3);

static long sys_dup2(int oldfd, int newfd)
{
	struct file *f;

	if (oldfd != newfd)
		return sys_dup3(oldfd, newfd, 0);
	f = fget(oldfd);		/* dup2(fd, fd) checks fd only */
	if (!f)
		return -EBADF;
	fput(f);
	return newfd;
}
SYSCALL(__NR_dup2, sys_dup2);

#define F_DUPFD		0
#define F_GETFD		1
#define F_SETFD		2
#define F_GETFL		3
#define F_SETFL		4
#define F_DUPFD_CLOEXEC	1030
#define FD_CLOEXEC	1
#define O_LARGEFILE	0100000		/* always set on 64-bit Linux */

static long sys_fcntl(int fd, int cmd, unsigned long arg)
{
	struct files_struct *files = current_files();
	struct file *f = fget(fd);
	long r = 0;

	if (!f)
		return -EBADF;
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		if (arg >= NR_OPEN_DEFAULT) {
			r = -EINVAL;
			break;
		}
		r = fd_install_new(get_file(f), (int)arg,
				   cmd == F_DUPFD_CLOEXEC);
		if (r < 0)
			fput(f);
		break;
	case F_GETFD:
		r = files->close_on_exec & (1ULL << fd) ? FD_CLOEXEC : 0;
		break;
	case F_SETFD:
		if (arg & FD_CLOEXEC)
			files->close_on_exec |= 1ULL << fd;
		else
			files->close_on_exec &= ~(1ULL << fd);
		break;
	case F_GETFL:
		r = (f->f_flags & ~O_CLOEXEC) | O_LARGEFILE;
		break;
	case F_SETFL:
		f->f_flags = (f->f_flags & ~(O_APPEND | O_NONBLOCK)) |
			     (arg & (O_APPEND | O_NONBLOCK));
		break;
	default:
		r = -EINVAL;
	}
	fput(f);
	return r;
}
SYSCALL(__NR_fcntl, sys_fcntl);

static long sys_ioctl(int fd, unsigned int cmd, unsigned long arg)
{
	struct file *f = fget(fd);
	long r;

	if (!f)
		return -EBADF;
	r = f->f_op && f->f_op->ioctl ? f->f_op->ioctl(f, cmd, arg) : -ENOTTY;
	fput(f);
	return r;
}
SYSCALL(__NR_ioctl, sys_ioctl);

static long sys_pipe2(int __user *ufds, int flags)
{
	struct file *rd, *wr;
	int fds[2];
	long err;

	if (flags & ~(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	err = create_pipe(&rd, &wr, flags);
	if (err)
		return err;
	fds[0] = fd_install_new(rd, 0, flags & O_CLOEXEC);
	fds[1] = fds[0] < 0 ? -EMFILE : fd_install_new(wr, 0, flags & O_CLOEXEC);
	if (fds[1] < 0) {
		if (fds[0] >= 0)
			close_fd(fds[0]);
		else
			fput(rd);
		fput(wr);
		return -EMFILE;
	}
	if (copy_to_user(ufds, fds, sizeof(fds))) {
		close_fd(fds[0]);
		close_fd(fds[1]);
		return -EFAULT;
	}
	return 0;
}
SYSCALL(__NR_pipe2, sys_pipe2);

static long sys_pipe(int __user *fds)
{
	return sys_pipe2(fds, 0);
}
SYSCALL(__NR_pipe, sys_pipe);

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
