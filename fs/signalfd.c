/* fs/signalfd.c — signalfd(2) and signalfd4(2) as Linux's fs/signalfd.c:
 * a file whose read takes the reader's pending signals of its mask as
 * 128-byte signalfd_siginfo records, instead of their delivery. The
 * signals stay the reader's: pending for the thread that reads or its
 * process; every signal queued wakes the sighand's signalfd_wqh. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/sched.h>
#include <zpk/signal.h>
#include <zpk/slab.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>

#define SFD_CLOEXEC	O_CLOEXEC
#define SFD_NONBLOCK	O_NONBLOCK

/* si_code values that choose the layout (Linux's siginfo_layout) */
#define SI_QUEUE	(-1)
#define SI_TIMER	(-2)
#define SI_SIGIO	(-5)

struct signalfd_siginfo {
	u32 ssi_signo;
	s32 ssi_errno;
	s32 ssi_code;
	u32 ssi_pid;
	u32 ssi_uid;
	s32 ssi_fd;
	u32 ssi_tid;
	u32 ssi_band;
	u32 ssi_overrun;
	u32 ssi_trapno;
	s32 ssi_status;
	s32 ssi_int;
	u64 ssi_ptr;
	u64 ssi_utime;
	u64 ssi_stime;
	u64 ssi_addr;
	u16 ssi_addr_lsb;
	u16 __pad2;
	s32 ssi_syscall;
	u64 ssi_call_addr;
	u32 ssi_arch;
	u8 __pad[28];
};
_Static_assert(sizeof(struct signalfd_siginfo) == 128, "Linux's 128 bytes");

struct signalfd_ctx {
	sigset_t sigmask;		/* the signals it takes */
};

static const struct file_operations signalfd_fops;

static void signalfd_release(struct file *f)
{
	kfree(f->private_data);
}

/* Readable while the poller has a pending signal of the mask (Linux's
 * signalfd_poll: the poller's own, whoever made the file). */
static unsigned int signalfd_poll(struct file *f, struct poll_table *pt)
{
	struct signalfd_ctx *ctx = f->private_data;

	poll_wait(f, &current->sighand->signalfd_wqh, pt);
	if ((current->pending | current->signal->shared_pending) &
	    ctx->sigmask)
		return POLLIN;
	return 0;
}

/* An int of the siginfo union at Linux's byte offset off. */
static s32 union_int(const struct kernel_siginfo *info, size_t off)
{
	s32 v;

	memcpy(&v, (const char *)&info->kill + off, sizeof(v));
	return v;
}

static u64 union_u64(const struct kernel_siginfo *info, size_t off)
{
	u64 v;

	memcpy(&v, (const char *)&info->kill + off, sizeof(v));
	return v;
}

/* info as a signalfd_siginfo, the fields of its layout filled (Linux's
 * signalfd_copyinfo over siginfo_layout). */
static void signalfd_copyinfo(struct signalfd_siginfo *ss,
			      const struct kernel_siginfo *info)
{
	int sig = info->si_signo, code = info->si_code;

	memset(ss, 0, sizeof(*ss));
	ss->ssi_signo = sig;
	ss->ssi_errno = info->si_errno;
	ss->ssi_code = code;
	if (code > SI_USER && code < SI_KERNEL && sig == SIGCHLD) {
		ss->ssi_pid = info->chld.pid;
		ss->ssi_uid = info->chld.uid;
		ss->ssi_status = info->chld.status;
	} else if (code > SI_USER && code < SI_KERNEL &&
		   (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL ||
		    sig == SIGFPE || sig == SIGTRAP)) {
		ss->ssi_addr = (u64)info->addr;
	} else if (code == SI_TIMER) {
		ss->ssi_tid = union_int(info, 0);
		ss->ssi_overrun = union_int(info, 4);
		ss->ssi_ptr = union_u64(info, 8);
		ss->ssi_int = union_int(info, 8);
	} else if (code == SI_SIGIO) {
		ss->ssi_band = (u32)union_u64(info, 0);
		ss->ssi_fd = union_int(info, 8);
	} else {
		ss->ssi_pid = info->kill.pid;
		ss->ssi_uid = info->kill.uid;
		if (code < 0) {		/* sigqueue's value */
			ss->ssi_ptr = union_u64(info, 8);
			ss->ssi_int = union_int(info, 8);
		}
	}
}

/* One signal of the mask into *info, sleeping for one unless nonblock
 * (Linux's signalfd_dequeue): the signal, -EAGAIN or -ERESTARTSYS. */
static int signalfd_dequeue(struct signalfd_ctx *ctx,
			    struct kernel_siginfo *info, bool nonblock)
{
	struct wait_queue_head *wq = &current->sighand->signalfd_wqh;
	struct wait_queue_entry wait = { .task = current };
	int ret = dequeue_signal_mask(ctx->sigmask, info);

	if (ret || nonblock)
		return ret ? ret : -EAGAIN;
	for (;;) {
		prepare_to_wait(wq, &wait, TASK_INTERRUPTIBLE);
		ret = dequeue_signal_mask(ctx->sigmask, info);
		if (ret)
			break;
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		schedule();
	}
	finish_wait(wq, &wait);
	return ret;
}

/*
 * As many 128-byte records as fit and signals wait (sleeping for the
 * first unless O_NONBLOCK); -EINVAL for a buffer smaller than one. The
 * records go straight to the user (read_user): those copied stay read.
 */
static ssize_t signalfd_read(struct file *f, char __user *buf, size_t n,
			     loff_t *pos)
{
	struct signalfd_ctx *ctx = f->private_data;
	bool nonblock = f->f_flags & O_NONBLOCK;
	struct signalfd_siginfo ss;
	struct kernel_siginfo info;
	size_t count = n / sizeof(ss), total = 0;
	int ret = 0;

	(void)pos;
	if (!count)
		return -EINVAL;
	for (; count; count--) {
		ret = signalfd_dequeue(ctx, &info, nonblock);
		if (ret <= 0)
			break;
		signalfd_copyinfo(&ss, &info);
		if (copy_to_user(buf + total, &ss, sizeof(ss))) {
			ret = -EFAULT;
			break;
		}
		total += sizeof(ss);
		nonblock = true;
	}
	return total ? (ssize_t)total : ret;
}

static const struct file_operations signalfd_fops = {
	.read_user = signalfd_read,
	.poll = signalfd_poll,
	.release = signalfd_release,
};

/*
 * A new signalfd for mask (fd -1), or a new mask for the signalfd fd.
 * SIGKILL and SIGSTOP are never taken. Linux's errnos in its order:
 * -EINVAL (sizemask not 8), -EFAULT, -EINVAL (unknown flags), -EBADF,
 * -EINVAL (fd not a signalfd).
 */
static long do_signalfd4(int ufd, const sigset_t __user *user_mask,
			 size_t sizemask, int flags)
{
	struct signalfd_ctx *ctx;
	struct file *f;
	sigset_t mask;
	int fd;

	if (sizemask != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&mask, user_mask, sizeof(mask)))
		return -EFAULT;
	if (flags & ~(SFD_CLOEXEC | SFD_NONBLOCK))
		return -EINVAL;
	mask &= ~(sigmask(SIGKILL) | sigmask(SIGSTOP));
	if (ufd != -1) {
		f = fget(ufd);
		if (!f)
			return -EBADF;
		if (f->f_op != &signalfd_fops) {
			fput(f);
			return -EINVAL;
		}
		ctx = f->private_data;
		ctx->sigmask = mask;
		/* a signal it takes now may already wait */
		wake_up(&current->sighand->signalfd_wqh);
		fput(f);
		return ufd;
	}
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->sigmask = mask;
	f = anon_inode_getfile("[signalfd]", &signalfd_fops, ctx,
			       O_RDWR | (flags & SFD_NONBLOCK));
	if (!f) {
		kfree(ctx);
		return -ENOMEM;
	}
	fd = fd_install_new(f, 0, flags & SFD_CLOEXEC);
	if (fd < 0)
		fput(f);
	return fd;
}

static long sys_signalfd4(int ufd, const sigset_t __user *user_mask,
			  size_t sizemask, int flags)
{
	return do_signalfd4(ufd, user_mask, sizemask, flags);
}
SYSCALL(__NR_signalfd4, sys_signalfd4);

static long sys_signalfd(int ufd, const sigset_t __user *user_mask,
			 size_t sizemask)
{
	return do_signalfd4(ufd, user_mask, sizemask, 0);
}
SYSCALL(__NR_signalfd, sys_signalfd);
