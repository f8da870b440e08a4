/* fs/splice.c — vmsplice(2) as Linux's fs/splice.c: user pages go into a
 * pipe by reference (no copy until the reader reads); from a pipe's read
 * end it is a readv. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/gup.h>
#include <zpk/mm.h>
#include <zpk/pipe_fs_i.h>
#include <zpk/sched.h>
#include <zpk/slab.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>
#include <zpk/uio.h>

#include "internal.h"

#define SPLICE_F_NONBLOCK	0x02
#define SPLICE_F_ALL		0x0f	/* MOVE, NONBLOCK, MORE, GIFT */

/*
 * Puts the pages of [addr, addr + len) into the pipe, a buffer each,
 * while it has free buffers (Linux's iter_to_pipe). Each page comes from
 * get_user_pages for read, with a reference the pipe keeps until it is
 * read: the page as it is then is what the reader gets, so whoever maps
 * it must not write it in place unless it is theirs alone (see
 * wp_can_reuse_anon_page). The zero page is kept without a reference.
 * Adds the bytes queued to *total; 0 or the gup's -errno.
 */
static long user_range_to_pipe(struct pipe_inode_info *pipe,
			       unsigned long addr, size_t len, long *total)
{
	while (len && !pipe_full(pipe)) {
		struct pipe_buffer buf = { .offset = addr & ~PAGE_MASK };
		long got;

		buf.len = min(len, PAGE_SIZE - buf.offset);
		mmap_read_lock(current->mm);
		got = get_user_pages(current->mm, addr, 1, 0, &buf.page);
		mmap_read_unlock(current->mm);
		if (got != 1)
			return got < 0 ? got : -EFAULT;
		if (pipe_full(pipe)) {	/* a userfault slept: others wrote */
			put_user_page(buf.page);
			break;
		}
		if (PageZero(buf.page))
			put_user_page(buf.page);
		pipe_push_buf(pipe, &buf);
		*total += buf.len;
		addr += buf.len;
		len -= buf.len;
	}
	return 0;
}

/* The write end: waits for room once, then queues what fits. */
static long vmsplice_to_pipe(struct file *f, const struct iovec *iov,
			     unsigned long nr, unsigned int flags)
{
	struct pipe_inode_info *pipe = get_pipe_info(f);
	long total = 0, err;
	unsigned long i;

	err = pipe_wait_for_space(pipe, (flags & SPLICE_F_NONBLOCK) ||
					(f->f_flags & O_NONBLOCK));
	for (i = 0; !err && i < nr && !pipe_full(pipe); i++)
		err = user_range_to_pipe(pipe, (unsigned long)iov[i].iov_base,
					 iov[i].iov_len, &total);
	if (total)
		wake_up(&pipe->wait);
	return total ? total : err;
}

static long sys_vmsplice(int fd, const struct iovec __user *uiov,
			 unsigned long nr, unsigned int flags)
{
	struct iovec *iov;
	struct file *f;
	size_t total;
	long ret;

	if (flags & ~SPLICE_F_ALL)
		return -EINVAL;
	f = fget(fd);
	if (!f)
		return -EBADF;
	ret = -EBADF;
	if (!get_pipe_info(f))
		goto out;
	if ((f->f_flags & O_ACCMODE) == O_RDONLY) {
		ret = nr > UIO_MAXIOV ? -EINVAL : vfs_rwv(f, uiov, (int)nr,
							   false);
		goto out;
	}
	ret = import_iovec(uiov, nr, &iov, &total);
	if (ret)
		goto out;
	ret = nr ? vmsplice_to_pipe(f, iov, nr, flags) : 0;
	kfree(iov);
out:
	fput(f);
	return ret;
}
SYSCALL(__NR_vmsplice, sys_vmsplice);
