/* fs/xattr.c — extended attributes: zpk's file systems (ramfs, /proc,
 * /dev) keep none, as Linux's ramfs and procfs keep none. The calls
 * resolve their file and check their name as Linux's do, then answer as
 * Linux's VFS answers for an inode without IOP_XATTR: get, set and
 * remove -EOPNOTSUPP, list an empty list. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>
#include "internal.h"

#define XATTR_NAME_MAX	255	/* Linux's, with its NUL */

/* The file of a path (following a last link or not) or of a descriptor
 * (path NULL): 0 or its lookup's -errno. */
static long xattr_file(const char __user *path, int fd, bool follow)
{
	struct inode *inode;

	if (!path)
		return fd_inode(fd < 0 ? -EBADF : fd, &inode);
	return user_lookup_flags(AT_FDCWD, path, follow ? LOOKUP_FOLLOW : 0,
				 &inode);
}

/* Linux's import of an attribute's name: -EFAULT, or -ERANGE if it is
 * empty or longer than XATTR_NAME_MAX. */
static long xattr_name(const char __user *name)
{
	char kname[XATTR_NAME_MAX + 1];
	long n = strncpy_from_user(kname, name, sizeof(kname));

	if (n == 0 || n == (long)sizeof(kname))
		return -ERANGE;
	return n < 0 ? n : 0;
}

/* get, set and remove: the file, then the name, then no attributes. */
static long xattr_op(const char __user *path, int fd, bool follow,
		     const char __user *name)
{
	long err = xattr_file(path, fd, follow);

	if (!err)
		err = xattr_name(name);
	return err ? err : -EOPNOTSUPP;
}

static long sys_getxattr(const char __user *path, const char __user *name,
			 void __user *value, size_t size)
{
	(void)value; (void)size;
	return xattr_op(path, -1, true, name);
}
SYSCALL(__NR_getxattr, sys_getxattr);

static long sys_lgetxattr(const char __user *path, const char __user *name,
			  void __user *value, size_t size)
{
	(void)value; (void)size;
	return xattr_op(path, -1, false, name);
}
SYSCALL(__NR_lgetxattr, sys_lgetxattr);

static long sys_fgetxattr(int fd, const char __user *name,
			  void __user *value, size_t size)
{
	(void)value; (void)size;
	return xattr_op(NULL, fd, true, name);
}
SYSCALL(__NR_fgetxattr, sys_fgetxattr);

static long sys_setxattr(const char __user *path, const char __user *name,
			 const void __user *value, size_t size, int flags)
{
	(void)value; (void)size; (void)flags;
	return xattr_op(path, -1, true, name);
}
SYSCALL(__NR_setxattr, sys_setxattr);

static long sys_lsetxattr(const char __user *path, const char __user *name,
			  const void __user *value, size_t size, int flags)
{
	(void)value; (void)size; (void)flags;
	return xattr_op(path, -1, false, name);
}
SYSCALL(__NR_lsetxattr, sys_lsetxattr);

static long sys_fsetxattr(int fd, const char __user *name,
			  const void __user *value, size_t size, int flags)
{
	(void)value; (void)size; (void)flags;
	return xattr_op(NULL, fd, true, name);
}
SYSCALL(__NR_fsetxattr, sys_fsetxattr);

static long sys_removexattr(const char __user *path,
			    const char __user *name)
{
	return xattr_op(path, -1, true, name);
}
SYSCALL(__NR_removexattr, sys_removexattr);

static long sys_lremovexattr(const char __user *path,
			     const char __user *name)
{
	return xattr_op(path, -1, false, name);
}
SYSCALL(__NR_lremovexattr, sys_lremovexattr);

static long sys_fremovexattr(int fd, const char __user *name)
{
	return xattr_op(NULL, fd, true, name);
}
SYSCALL(__NR_fremovexattr, sys_fremovexattr);

/* list: the file's names, none; the buffer is never touched. */
static long sys_listxattr(const char __user *path, char __user *list,
			  size_t size)
{
	(void)list; (void)size;
	return xattr_file(path, -1, true);
}
SYSCALL(__NR_listxattr, sys_listxattr);

static long sys_llistxattr(const char __user *path, char __user *list,
			   size_t size)
{
	(void)list; (void)size;
	return xattr_file(path, -1, false);
}
SYSCALL(__NR_llistxattr, sys_llistxattr);

static long sys_flistxattr(int fd, char __user *list, size_t size)
{
	(void)list; (void)size;
	return xattr_file(NULL, fd, true);
}
SYSCALL(__NR_flistxattr, sys_flistxattr);
