/* fs/fcntl.c — calls on descriptors themselves: dup, dup2, dup3,
 * fcntl (F_DUPFD, FD_CLOEXEC, status flags; record locks are
 * fs/locks.c's) and ioctl. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/pipe_fs_i.h>
#include <zpk/sched.h>
#include <zpk/slab.h>
#include <zpk/sprintf.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>
#include "internal.h"

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
	case F_SETPIPE_SZ:
	case F_GETPIPE_SZ:
		r = pipe_fcntl(f, cmd, (unsigned int)arg);
		break;
	case F_GETLK:
	case F_SETLK:
	case F_SETLKW:
	case F_OFD_GETLK:
	case F_OFD_SETLK:
	case F_OFD_SETLKW:
		r = fcntl_lock(fd, f, cmd, arg);
		break;
	case F_ADD_SEALS:
	case F_GET_SEALS:
		r = memfd_fcntl(f, cmd, arg);
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
