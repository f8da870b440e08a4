/* fs/read_write.c — read, write and their relatives: data passes
 * through the task's bounce page (rw_page), because file operations take
 * kernel buffers. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/gup.h>
#include <zpk/mm.h>
#include <zpk/sched.h>
#include <zpk/slab.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>
#include <zpk/uio.h>

#include "internal.h"

#define SEEK_SET	0
#define SEEK_CUR	1
#define SEEK_END	2
#define MAX_RW_COUNT	0x7ffff000L	/* Linux's cap on one transfer */

static bool unseekable(const struct file *f)
{
	return S_ISFIFO(f->f_inode->i_mode) || S_ISSOCK(f->f_inode->i_mode) ||
	       is_tty(f);
}

/* Files whose operations take the user's iovecs whole (sockets). */
static bool has_iter(const struct file *f, bool write)
{
	return write ? f->f_op->write_iter != NULL : f->f_op->read_iter != NULL;
}

static ssize_t do_iter(struct file *f, const struct iovec *iov,
		       unsigned long nr, bool write)
{
	if (write ? (f->f_flags & O_ACCMODE) == O_RDONLY
		  : (f->f_flags & O_ACCMODE) == O_WRONLY)
		return -EBADF;
	return write ? f->f_op->write_iter(f, iov, nr)
		     : f->f_op->read_iter(f, iov, nr);
}

/*
 * Makes sure every page of [ubuf, ubuf + n) can be written, by faulting
 * it in for write (Linux's fault_in_writeable): a read must not take
 * data from a pipe or tty it then cannot deliver. (Untouched pages are
 * faulted in, COWed if shared.) Takes the mmap_lock for reading.
 */
static bool writeable(char __user *ubuf, size_t n)
{
	unsigned long a = (unsigned long)ubuf & PAGE_MASK;
	unsigned long nr = (PAGE_ALIGN((unsigned long)ubuf + n) - a) >>
			   PAGE_SHIFT;

	long got;

	mmap_read_lock(current->mm);
	got = get_user_pages(current->mm, a, nr, FOLL_WRITE, NULL);
	mmap_read_unlock(current->mm);
	return got == (long)nr;
}

/* After a full transfer, whether a read goes on: always in a file, in a
 * pipe, socket or tty only while it has data now (poll without waiting).
 * Linux's read of those returns what it found once it has some. */
static bool read_goes_on(struct file *f)
{
	return !unseekable(f) ||
	       (f->f_op->poll && (f->f_op->poll(f, NULL) & POLLIN));
}

/*
 * One read or write of n user bytes at *pos, a page at a time through
 * current's bounce page. Stops at a short transfer (end of file, a pipe's
 * worth) so that, as on Linux, the caller sees how much moved; -EFAULT
 * only if nothing did. A read of a pipe, socket or tty goes on to its next
 * page only while more is there (read_goes_on).
 */
static ssize_t do_rw(struct file *f, char __user *ubuf, size_t n,
		     loff_t *pos, bool write)
{
	char *kbuf = current->rw_page;
	ssize_t done = 0, r = 0;

	if (has_iter(f, write)) {
		struct iovec v = { ubuf, min(n, (size_t)MAX_RW_COUNT) };

		return do_iter(f, &v, 1, write);
	}
	if (write ? (f->f_flags & O_ACCMODE) == O_RDONLY
		  : (f->f_flags & O_ACCMODE) == O_WRONLY)
		return -EBADF;
	if (write ? !f->f_op->write : !f->f_op->read && !f->f_op->read_user)
		return -EINVAL;
	if (!access_ok(ubuf, n))
		return -EFAULT;
	if (n > MAX_RW_COUNT)
		n = MAX_RW_COUNT;
	if (!write && f->f_op->read_user)
		return f->f_op->read_user(f, ubuf, n, pos);
	while ((size_t)done < n) {
		size_t k = min(n - done, (size_t)PAGE_SIZE);

		if (write) {
			if (copy_from_user(kbuf, ubuf + done, k)) {
				r = -EFAULT;
				break;
			}
			r = f->f_op->write(f, kbuf, k, pos);
		} else {
			if (!writeable(ubuf + done, k)) {
				r = -EFAULT;
				break;
			}
			r = f->f_op->read(f, kbuf, k, pos);
			if (r > 0 && copy_to_user(ubuf + done, kbuf, r)) {
				r = -EFAULT;
				break;
			}
		}
		if (r <= 0)
			break;
		done += r;
		if ((size_t)r < k)
			break;
		if (!write && !read_goes_on(f))
			break;
	}
	return done ? done : r;
}

static long sys_read(int fd, char __user *buf, size_t n)
{
	struct file *f = fget(fd);
	long r;

	if (!f)
		return -EBADF;
	r = do_rw(f, buf, n, &f->f_pos, false);
	fput(f);
	return r;
}
SYSCALL(__NR_read, sys_read);

static long sys_write(int fd, const char __user *buf, size_t n)
{
	struct file *f = fget(fd);
	long r;

	if (!f)
		return -EBADF;
	r = do_rw(f, (char __user *)buf, n, &f->f_pos, true);
	fput(f);
	return r;
}
SYSCALL(__NR_write, sys_write);

static long do_prw(int fd, char __user *buf, size_t n, loff_t pos,
		   bool write)
{
	struct file *f = fget(fd);
	long r;

	if (!f)
		return -EBADF;
	if (unseekable(f))
		r = -ESPIPE;
	else if (pos < 0)
		r = -EINVAL;
	else
		r = do_rw(f, buf, n, &pos, write);
	fput(f);
	return r;
}

static long sys_pread64(int fd, char __user *buf, size_t n, loff_t pos)
{
	return do_prw(fd, buf, n, pos, false);
}
SYSCALL(__NR_pread64, sys_pread64);

static long sys_pwrite64(int fd, const char __user *buf, size_t n, loff_t pos)
{
	return do_prw(fd, (char __user *)buf, n, pos, true);
}
SYSCALL(__NR_pwrite64, sys_pwrite64);

/*
 * Linux's import_iovec: the user's cnt iovecs into a new kernel array
 * (kfree it): -EINVAL past UIO_MAXIOV, each length checked (-EINVAL for
 * a negative one or a total past SSIZE_MAX, -EFAULT for a bad address)
 * and cut so that they add up to MAX_RW_COUNT at most; that total in
 * *total.
 */
long import_iovec(const struct iovec __user *uiov, unsigned long cnt,
		  struct iovec **res, size_t *total)
{
	struct iovec *iov;
	size_t sum = 0;
	long r = 0;

	if (cnt > UIO_MAXIOV)
		return -EINVAL;
	iov = kmalloc(sizeof(*iov) * (cnt ? cnt : 1), GFP_KERNEL);
	if (!iov)
		return -ENOMEM;
	*total = 0;
	if (copy_from_user(iov, uiov, sizeof(*iov) * cnt))
		r = -EFAULT;
	for (unsigned long i = 0; i < cnt && !r; i++) {
		size_t len = iov[i].iov_len;

		if ((long)len < 0 || len > (size_t)__LONG_MAX__ - sum)
			r = -EINVAL;
		else if (!access_ok(iov[i].iov_base, len))
			r = -EFAULT;
		sum += len;
		iov[i].iov_len = min(len, (size_t)MAX_RW_COUNT - *total);
		*total += iov[i].iov_len;
	}
	if (r) {
		kfree(iov);
		return r;
	}
	*res = iov;
	return 0;
}

/* readv/writev of a socket: its iovecs handed over whole. */
static long do_rwv_iter(struct file *f, const struct iovec __user *uiov,
			int cnt, bool write)
{
	struct iovec *iov;
	size_t total;
	long r = import_iovec(uiov, cnt, &iov, &total);

	if (r)
		return r;
	r = do_iter(f, iov, cnt, write);
	kfree(iov);
	return r;
}

long vfs_rwv(struct file *f, const struct iovec __user *uiov, int cnt,
	     bool write)
{
	long total = 0, r = 0;

	if (has_iter(f, write))
		return do_rwv_iter(f, uiov, cnt, write);
	for (int i = 0; i < cnt; i++) {
		struct iovec v;

		if (copy_from_user(&v, uiov + i, sizeof(v))) {
			r = -EFAULT;
			break;
		}
		if ((long)v.iov_len < 0) {
			r = -EINVAL;
			break;
		}
		if (!v.iov_len)
			continue;
		r = do_rw(f, v.iov_base, v.iov_len, &f->f_pos, write);
		if (r <= 0)
			break;
		total += r;
		if ((size_t)r < v.iov_len || (!write && !read_goes_on(f)))
			break;
	}
	return total ? total : r;
}

static long do_rwv(int fd, const struct iovec __user *uiov, int cnt,
		   bool write)
{
	struct file *f;
	long r;

	if (cnt < 0 || cnt > UIO_MAXIOV)
		return -EINVAL;
	f = fget(fd);
	if (!f)
		return -EBADF;
	r = vfs_rwv(f, uiov, cnt, write);
	fput(f);
	return r;
}

static long sys_readv(int fd, const struct iovec __user *iov, int cnt)
{
	return do_rwv(fd, iov, cnt, false);
}
SYSCALL(__NR_readv, sys_readv);

static long sys_writev(int fd, const struct iovec __user *iov, int cnt)
{
	return do_rwv(fd, iov, cnt, true);
}
SYSCALL(__NR_writev, sys_writev);

static long sys_lseek(int fd, loff_t off, int whence)
{
	struct file *f = fget(fd);
	loff_t base, pos;
	long r;

	if (!f)
		return -EBADF;
	if (f->f_op->llseek) {
		r = f->f_op->llseek(f, off, whence);
		fput(f);
		return r;
	}
	switch (whence) {
	case SEEK_SET: base = 0; break;
	case SEEK_CUR: base = f->f_pos; break;
	case SEEK_END: base = (loff_t)f->f_inode->i_size; break;
	default: base = -1; break;
	}
	pos = base + off;
	if (unseekable(f))
		r = -ESPIPE;
	else if (base < 0 || pos < 0)
		r = -EINVAL;
	else if (S_ISCHR(f->f_inode->i_mode))
		r = 0;			/* /dev/null, /dev/zero: always 0 */
	else
		r = f->f_pos = pos;
	fput(f);
	return r;
}
SYSCALL(__NR_lseek, sys_lseek);

/*
 * Copies up to count bytes from in at *pos to out at its position, a page
 * at a time through current's bounce page; stops at the input's end or a
 * short write. What moved, or -errno if nothing did.
 */
static ssize_t do_sendfile_copy(struct file *in, loff_t *pos,
				struct file *out, size_t count)
{
	char *kbuf = current->rw_page;
	ssize_t done = 0, r = 0, w;

	while ((size_t)done < count) {
		size_t k = min(count - done, (size_t)PAGE_SIZE);

		r = in->f_op->read(in, kbuf, k, pos);
		if (r <= 0)
			break;
		w = out->f_op->write(out, kbuf, r, &out->f_pos);
		if (w < r) {
			*pos -= r - (w > 0 ? w : 0);	/* not sent: unread */
			r = w;
			done += w > 0 ? w : 0;
			break;
		}
		done += w;
		if ((size_t)r < k)
			break;
	}
	return done ? done : r;
}

/*
 * Linux's do_sendfile checks, in its order: the input must be open for
 * reading, an offset needs a seekable input and must not be negative,
 * the output must be open for writing and not O_APPEND; an input with no
 * read (a pipe, a tty: Linux's missing splice_read) is -EINVAL.
 */
static long do_sendfile(int out_fd, int in_fd, loff_t *ppos, size_t count)
{
	struct file *in = fget(in_fd), *out = NULL;
	loff_t pos;
	long r = -EBADF;

	if (!in || (in->f_flags & O_ACCMODE) == O_WRONLY)
		goto done;
	r = -ESPIPE;
	if (ppos && unseekable(in))
		goto done;
	pos = ppos ? *ppos : in->f_pos;
	r = -EINVAL;
	if (pos < 0)
		goto done;
	count = min(count, (size_t)MAX_RW_COUNT);
	out = fget(out_fd);
	r = -EBADF;
	if (!out || (out->f_flags & O_ACCMODE) == O_RDONLY)
		goto done;
	r = -EINVAL;
	if ((out->f_flags & O_APPEND) || unseekable(in) || !in->f_op->read ||
	    !out->f_op->write)
		goto done;
	r = count ? do_sendfile_copy(in, &pos, out, count) : 0;
	if (ppos)
		*ppos = pos;
	else
		in->f_pos = pos;
done:
	if (out)
		fput(out);
	if (in)
		fput(in);
	return r;
}

/* sendfile(out_fd, in_fd, offset, count): *offset is read first and
 * written back after, whatever the result, as Linux's sendfile64. */
static long sys_sendfile(int out_fd, int in_fd, loff_t __user *offset,
			 size_t count)
{
	loff_t pos;
	long r;

	if (!offset)
		return do_sendfile(out_fd, in_fd, NULL, count);
	if (copy_from_user(&pos, offset, sizeof(pos)))
		return -EFAULT;
	r = do_sendfile(out_fd, in_fd, &pos, count);
	if (copy_to_user(offset, &pos, sizeof(pos)))
		return -EFAULT;
	return r;
}
SYSCALL(__NR_sendfile, sys_sendfile);
