/* mm/process_vm_access.c — process_vm_readv and process_vm_writev: copies
 * between this process's buffers and another's pages, via get_user_pages. */
#include <zpk/errno.h>
#include <zpk/gup.h>
#include <zpk/mm.h>
#include <zpk/mm_lifecycle.h>
#include <zpk/sched.h>
#include <zpk/slab.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>
#include <zpk/uio.h>


/* Where the next local byte goes or comes from. */
struct iov_cursor {
	const struct iovec *iov;
	unsigned long nr, i;
	size_t off;
};

/*
 * Copies n bytes between kaddr (a remote page, in the direct map) and the
 * local iovecs at the cursor. Returns the bytes moved; short if the local
 * iovecs end or a local buffer faults.
 */
static size_t copy_local(struct iov_cursor *c, char *kaddr, size_t n,
			 bool write_remote)
{
	size_t done = 0;

	while (done < n && c->i < c->nr) {
		const struct iovec *v = &c->iov[c->i];
		size_t k = min(n - done, v->iov_len - c->off);
		char __user *u = (char __user *)v->iov_base + c->off;
		unsigned long left;

		left = write_remote ? raw_copy_from_user(kaddr + done, u, k)
				    : copy_to_user(u, kaddr + done, k);
		done += k - left;
		c->off += k - left;
		if (left)
			break;
		if (c->off == v->iov_len) {
			c->i++;
			c->off = 0;
		}
	}
	return done;
}

/*
 * One remote iovec, a page at a time through kbuf (a page): the remote
 * side is copied with mm's mmap_lock held and the local side without it,
 * so no fault on our own memory happens while another mm's lock is held
 * (docs/smp.md: mmap_locks do not nest). The bytes moved, or -errno if
 * none moved (the remote page failed, or the local buffer: -EFAULT).
 */
static long rw_remote(struct mm_struct *mm, const struct iovec *r,
		      struct iov_cursor *c, bool write, char *kbuf)
{
	unsigned int foll = write ? FOLL_WRITE : 0;
	unsigned long addr = (unsigned long)r->iov_base;
	size_t done = 0;

	while (done < r->iov_len && c->i < c->nr) {
		size_t off = addr & ~PAGE_MASK;
		size_t n = min(r->iov_len - done, (size_t)(PAGE_SIZE - off));
		struct iov_cursor before = *c;
		size_t got = n;

		if (write)
			got = copy_local(c, kbuf, n, true);
		if (got && (size_t)access_remote_vm(mm, addr, kbuf, got, foll) !=
			   got) {
			*c = before;	/* those local bytes did not move */
			return done ? (long)done : -EFAULT;
		}
		if (!write)
			got = copy_local(c, kbuf, n, false);
		done += got;
		addr += got;
		if (got < n && c->i < c->nr)	/* a local buffer faulted */
			return done ? (long)done : -EFAULT;
		if (got < n)
			break;
	}
	return (long)done;
}

static void *copy_iov(const struct iovec __user *uiov, unsigned long nr)
{
	struct iovec *iov;

	if (nr > UIO_MAXIOV)
		return NULL;
	iov = kmalloc(nr * sizeof(*iov) + 1, GFP_KERNEL);
	if (iov && copy_from_user(iov, uiov, nr * sizeof(*iov))) {
		kfree(iov);
		return NULL;
	}
	return iov;
}

/* The local iovecs as Linux's import_iovec checks them: each must be
 * user memory for its whole length, so lengths that would overflow the
 * total fail here. 0 or -EFAULT. */
static int check_local_iov(const struct iovec *iov, unsigned long nr)
{
	for (unsigned long i = 0; i < nr; i++)
		if (!access_ok(iov[i].iov_base, iov[i].iov_len))
			return -EFAULT;
	return 0;
}

static long process_vm_rw(int pid, const struct iovec __user *lvec,
			  unsigned long liovcnt,
			  const struct iovec __user *rvec,
			  unsigned long riovcnt, unsigned long flags,
			  bool write)
{
	struct task_struct *t = find_task_by_pid(pid);
	struct iovec *liov, *riov;
	struct iov_cursor c = { 0 };
	struct mm_struct *mm;
	long total = 0, ret = 0;
	char *kbuf;

	if (flags || liovcnt > UIO_MAXIOV || riovcnt > UIO_MAXIOV)
		return -EINVAL;
	/* Held with mmget (Linux's mm_access): a userfault in either mm
	 * may sleep, and t may exit meanwhile. */
	mm = t ? t->mm : NULL;
	if (!mm || !mmget_not_zero(mm))
		return -ESRCH;
	liov = copy_iov(lvec, liovcnt);
	riov = copy_iov(rvec, riovcnt);
	kbuf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!liov || !riov || !kbuf) {
		ret = kbuf ? -EFAULT : -ENOMEM;
		goto out;
	}
	ret = check_local_iov(liov, liovcnt);
	if (ret)
		goto out;
	c.iov = liov;
	c.nr = liovcnt;
	for (unsigned long i = 0; i < riovcnt && c.i < c.nr; i++) {
		ret = rw_remote(mm, &riov[i], &c, write, kbuf);
		if (ret < 0)
			break;
		total += ret;
		if ((size_t)ret < riov[i].iov_len)
			break;
	}
out:
	kfree(kbuf);
	kfree(liov);
	kfree(riov);
	mmput(mm);
	return total ? total : ret;
}

static long sys_process_vm_readv(int pid, const struct iovec __user *lvec,
				 unsigned long liovcnt,
				 const struct iovec __user *rvec,
				 unsigned long riovcnt, unsigned long flags)
{
	return process_vm_rw(pid, lvec, liovcnt, rvec, riovcnt, flags, false);
}
SYSCALL(__NR_process_vm_readv, sys_process_vm_readv);

static long sys_process_vm_writev(int pid, const struct iovec __user *lvec,
				  unsigned long liovcnt,
				  const struct iovec __user *rvec,
				  unsigned long riovcnt, unsigned long flags)
{
	return process_vm_rw(pid, lvec, liovcnt, rvec, riovcnt, flags, true);
}
SYSCALL(__NR_process_vm_writev, sys_process_vm_writev);
