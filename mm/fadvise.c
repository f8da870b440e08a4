/* mm/fadvise.c — posix_fadvise (fadvise64): advice on a file's access
 * pattern. Every file's pages live in RAM, so there is nothing to read
 * ahead or drop: the advice is checked and ignored, as Linux ignores it
 * on a file system without a backing device (tmpfs, /proc). */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/syscalls.h>

#define POSIX_FADV_NORMAL	0
#define POSIX_FADV_NOREUSE	5	/* the last one */

/*
 * Linux's generic_fadvise for a no-op backing device: -EBADF, -ESPIPE for
 * a pipe or FIFO, -EINVAL for a length that is negative as loff_t or an
 * unknown advice; else 0. offset is not checked, as there.
 */
static long sys_fadvise64(int fd, long offset, long len, int advice)
{
	struct file *f = fget(fd);
	long err = 0;

	(void)offset;
	if (!f)
		return -EBADF;
	if (S_ISFIFO(f->f_inode->i_mode))
		err = -ESPIPE;
	else if (len < 0 || advice < POSIX_FADV_NORMAL ||
		 advice > POSIX_FADV_NOREUSE)
		err = -EINVAL;
	fput(f);
	return err;
}
SYSCALL(__NR_fadvise64, sys_fadvise64);
