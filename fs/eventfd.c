/* fs/eventfd.c — eventfd(2) and eventfd2(2) as Linux's fs/eventfd.c: a
 * 64-bit counter behind a file; write adds to it, read takes it all (or,
 * with EFD_SEMAPHORE, one), each sleeping while it cannot. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/sched.h>
#include <zpk/slab.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>

#define EFD_SEMAPHORE	1
#define EFD_CLOEXEC	O_CLOEXEC
#define EFD_NONBLOCK	O_NONBLOCK
#define ULLONG_MAX	(~0ULL)

struct eventfd_ctx {
	u64 count;			/* never ULLONG_MAX */
	unsigned int flags;		/* EFD_SEMAPHORE */
	struct wait_queue_head wqh;	/* readers, writers and pollers */
};

static void eventfd_release(struct file *f)
{
	kfree(f->private_data);
}

/* 8 bytes: the count, and it becomes 0 (EFD_SEMAPHORE: 1, and one less);
 * sleeps while it is 0. -EINVAL for a smaller buffer, as Linux. */
static ssize_t eventfd_read(struct file *f, char *buf, size_t n, loff_t *pos)
{
	struct eventfd_ctx *ctx = f->private_data;
	u64 ucnt;

	(void)pos;
	if (n < sizeof(ucnt))
		return -EINVAL;
	while (!ctx->count) {
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (sleep_on(&ctx->wqh))
			return -ERESTARTSYS;
	}
	ucnt = ctx->flags & EFD_SEMAPHORE ? 1 : ctx->count;
	ctx->count -= ucnt;
	memcpy(buf, &ucnt, sizeof(ucnt));
	wake_up(&ctx->wqh);		/* room for writers */
	return sizeof(ucnt);
}

/* Adds the 8 bytes' value; sleeps while the sum would reach ULLONG_MAX.
 * -EINVAL for a smaller buffer or the value ULLONG_MAX. */
static ssize_t eventfd_write(struct file *f, const char *buf, size_t n,
			     loff_t *pos)
{
	struct eventfd_ctx *ctx = f->private_data;
	u64 ucnt;

	(void)pos;
	if (n < sizeof(ucnt))
		return -EINVAL;
	memcpy(&ucnt, buf, sizeof(ucnt));
	if (ucnt == ULLONG_MAX)
		return -EINVAL;
	while (ULLONG_MAX - ctx->count <= ucnt) {
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (sleep_on(&ctx->wqh))
			return -ERESTARTSYS;
	}
	ctx->count += ucnt;
	if (ucnt)
		wake_up(&ctx->wqh);
	return sizeof(ucnt);
}

/* Readable while the count is not 0, writable while 1 more fits. */
static unsigned int eventfd_poll(struct file *f, struct poll_table *pt)
{
	struct eventfd_ctx *ctx = f->private_data;
	unsigned int events = 0;

	poll_wait(f, &ctx->wqh, pt);
	if (ctx->count > 0)
		events |= POLLIN;
	if (ctx->count == ULLONG_MAX)
		events |= POLLERR;
	if (ULLONG_MAX - 1 > ctx->count)
		events |= POLLOUT;
	return events;
}

static const struct file_operations eventfd_fops = {
	.read = eventfd_read,
	.write = eventfd_write,
	.poll = eventfd_poll,
	.release = eventfd_release,
};

/* An eventfd counting from count: the fd, -EINVAL (unknown flags),
 * -ENOMEM, -EMFILE. */
static long sys_eventfd2(unsigned int count, int flags)
{
	struct eventfd_ctx *ctx;
	struct file *f;
	int fd;

	if (flags & ~(EFD_SEMAPHORE | EFD_CLOEXEC | EFD_NONBLOCK))
		return -EINVAL;
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->count = count;
	ctx->flags = flags & EFD_SEMAPHORE;
	init_waitqueue_head(&ctx->wqh);
	f = anon_inode_getfile("[eventfd]", &eventfd_fops, ctx,
			       O_RDWR | (flags & EFD_NONBLOCK));
	if (!f) {
		kfree(ctx);
		return -ENOMEM;
	}
	fd = fd_install_new(f, 0, flags & EFD_CLOEXEC);
	if (fd < 0)
		fput(f);
	return fd;
}
SYSCALL(__NR_eventfd2, sys_eventfd2);

static long sys_eventfd(unsigned int count)
{
	return sys_eventfd2(count, 0);
}
SYSCALL(__NR_eventfd, sys_eventfd);
