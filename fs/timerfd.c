/* fs/timerfd.c — timerfd_create, timerfd_settime and timerfd_gettime as
 * Linux's fs/timerfd.c: a timer behind a file, whose read gives the
 * number of expirations since the last read (a u64) and sleeps until
 * there is one. Expirations are counted from the timer's clock when
 * asked, exactly; a kernel timer (to the tick) only wakes the readers
 * and pollers. Everything but that timer's function runs under the big
 * kernel lock. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/sched.h>
#include <zpk/signal.h>
#include <zpk/slab.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/time.h>
#include <zpk/timer.h>
#include <zpk/uaccess.h>

#define CLOCK_REALTIME_ALARM	8
#define CLOCK_BOOTTIME_ALARM	9
#define TFD_CLOEXEC		O_CLOEXEC
#define TFD_NONBLOCK		O_NONBLOCK
#define TFD_TIMER_ABSTIME	1
#define TFD_TIMER_CANCEL_ON_SET	2
#define KTIME_MAX		((u64)0x7fffffffffffffffULL)

struct itimerspec {
	struct __kernel_timespec it_interval;
	struct __kernel_timespec it_value;
};

struct timerfd_ctx {
	struct timer_list t;		/* wakes wqh at the next expiry */
	struct wait_queue_head wqh;	/* readers and pollers */
	int clockid;
	bool armed;
	u64 next;			/* the next expiry, in clockid's ns */
	u64 interval;			/* 0: once */
	u64 ticks;			/* expirations not read yet */
};

static const struct file_operations timerfd_fops;

static bool timerfd_realtime(const struct timerfd_ctx *ctx)
{
	return ctx->clockid == CLOCK_REALTIME ||
	       ctx->clockid == CLOCK_REALTIME_ALARM;
}

static u64 timerfd_now(const struct timerfd_ctx *ctx)
{
	return timerfd_realtime(ctx) ? ktime_get_real_ns() : ktime_get_ns();
}

/* Counts the expirations up to now into ticks and moves next past now
 * (Linux's hrtimer_forward); a timer without interval disarms. */
static void timerfd_update(struct timerfd_ctx *ctx, u64 now)
{
	u64 n;

	if (!ctx->armed || now < ctx->next)
		return;
	if (!ctx->interval) {
		ctx->ticks++;
		ctx->armed = false;
		return;
	}
	n = (now - ctx->next) / ctx->interval + 1;
	ctx->ticks += n;
	if (n > (KTIME_MAX - ctx->next) / ctx->interval)
		ctx->armed = false;	/* past the end of time */
	else
		ctx->next += n * ctx->interval;
}

/* The kernel timer for the next expiry, if nobody has been told of one
 * yet (ticks 0): at next in monotonic time, which for a realtime clock
 * is the same distance away. */
static void timerfd_arm(struct timerfd_ctx *ctx)
{
	u64 now = timerfd_now(ctx), mono = ktime_get_ns();

	if (!ctx->armed || ctx->ticks)
		return;
	if (ctx->next <= now)
		mod_timer(&ctx->t, mono);	/* the next tick */
	else if (ctx->next - now > KTIME_MAX - mono)
		mod_timer(&ctx->t, KTIME_MAX);
	else
		mod_timer(&ctx->t, mono + ctx->next - now);
}

/* Interrupt context: an expiry; its count is made when someone looks. */
static void timerfd_tmrproc(struct timer_list *t)
{
	struct timerfd_ctx *ctx = container_of(t, struct timerfd_ctx, t);

	wake_up(&ctx->wqh);
}

static bool timerfd_ready(struct timerfd_ctx *ctx)
{
	timerfd_update(ctx, timerfd_now(ctx));
	return ctx->ticks != 0;
}

/* 8 bytes: the expirations since the last read, which sleeps until there
 * is one; -EINVAL for a smaller buffer, -EAGAIN with O_NONBLOCK. */
static ssize_t timerfd_read(struct file *f, char *buf, size_t n, loff_t *pos)
{
	struct timerfd_ctx *ctx = f->private_data;
	int err;

	(void)pos;
	if (n < sizeof(u64))
		return -EINVAL;
	if (!timerfd_ready(ctx)) {
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		err = wait_event_interruptible(ctx->wqh, timerfd_ready(ctx));
		if (err)
			return err;
	}
	memcpy(buf, &ctx->ticks, sizeof(u64));
	ctx->ticks = 0;
	timerfd_arm(ctx);
	return sizeof(u64);
}

static unsigned int timerfd_poll(struct file *f, struct poll_table *pt)
{
	struct timerfd_ctx *ctx = f->private_data;

	poll_wait(f, &ctx->wqh, pt);
	return timerfd_ready(ctx) ? POLLIN : 0;
}

static void timerfd_release(struct file *f)
{
	struct timerfd_ctx *ctx = f->private_data;

	del_timer_sync(&ctx->t);
	kfree(ctx);
}

static const struct file_operations timerfd_fops = {
	.read = timerfd_read,
	.poll = timerfd_poll,
	.release = timerfd_release,
};

static long sys_timerfd_create(int clockid, int flags)
{
	struct timerfd_ctx *ctx;
	struct file *f;
	int fd;

	if ((flags & ~(TFD_CLOEXEC | TFD_NONBLOCK)) ||
	    (clockid != CLOCK_MONOTONIC && clockid != CLOCK_REALTIME &&
	     clockid != CLOCK_REALTIME_ALARM && clockid != CLOCK_BOOTTIME &&
	     clockid != CLOCK_BOOTTIME_ALARM))
		return -EINVAL;
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	timer_setup(&ctx->t, timerfd_tmrproc);
	init_waitqueue_head(&ctx->wqh);
	ctx->clockid = clockid;
	f = anon_inode_getfile("[timerfd]", &timerfd_fops, ctx,
			       O_RDWR | (flags & TFD_NONBLOCK));
	if (!f) {
		kfree(ctx);
		return -ENOMEM;
	}
	fd = fd_install_new(f, 0, flags & TFD_CLOEXEC);
	if (fd < 0)
		fput(f);
	return fd;
}
SYSCALL(__NR_timerfd_create, sys_timerfd_create);

/* Linux's timespec64_valid, and the value in ns (past KTIME_MAX: cut). */
static bool timespec_ns(const struct __kernel_timespec *ts, u64 *ns)
{
	if (ts->tv_sec < 0 || (unsigned long)ts->tv_nsec >= NSEC_PER_SEC)
		return false;
	if ((u64)ts->tv_sec >= KTIME_MAX / NSEC_PER_SEC)
		*ns = KTIME_MAX;
	else
		*ns = (u64)ts->tv_sec * NSEC_PER_SEC + (u64)ts->tv_nsec;
	return true;
}

static struct __kernel_timespec ns_timespec(u64 ns)
{
	return (struct __kernel_timespec){ .tv_sec = ns / NSEC_PER_SEC,
					   .tv_nsec = ns % NSEC_PER_SEC };
}

/* The file's ctx (Linux's timerfd_fget): -EBADF, or -EINVAL if fd is
 * not a timerfd. The caller puts *fp. */
static struct timerfd_ctx *timerfd_fget(int fd, struct file **fp, long *err)
{
	struct file *f = fget(fd);

	*err = -EBADF;
	if (!f)
		return NULL;
	if (f->f_op != &timerfd_fops) {
		fput(f);
		*err = -EINVAL;
		return NULL;
	}
	*fp = f;
	return f->private_data;
}

/* What timerfd_gettime says: the time to the next expiry (0 if none)
 * and the interval, after counting the expirations up to now. */
static void timerfd_get(struct timerfd_ctx *ctx, struct itimerspec *its)
{
	u64 now = timerfd_now(ctx);

	timerfd_update(ctx, now);
	its->it_value = ns_timespec(ctx->armed ? ctx->next - now : 0);
	its->it_interval = ns_timespec(ctx->interval);
}

/*
 * Arms (a value not 0) or disarms the timer, relative or at an absolute
 * time of its clock (TFD_TIMER_ABSTIME; one already past expires at
 * once, with every interval since counted); the count not read yet is
 * dropped, as Linux's. TFD_TIMER_CANCEL_ON_SET is accepted: zpk's clocks
 * are never set, so nothing cancels.
 */
static long sys_timerfd_settime(int fd, int flags,
				const struct itimerspec __user *utmr,
				struct itimerspec __user *otmr)
{
	struct itimerspec new, old;
	struct timerfd_ctx *ctx;
	u64 value, interval;
	struct file *f;
	long err;

	if (copy_from_user(&new, utmr, sizeof(new)))
		return -EFAULT;
	if ((flags & ~(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET)) ||
	    !timespec_ns(&new.it_value, &value) ||
	    !timespec_ns(&new.it_interval, &interval))
		return -EINVAL;
	ctx = timerfd_fget(fd, &f, &err);
	if (!ctx)
		return err;
	timerfd_get(ctx, &old);
	ctx->ticks = 0;
	ctx->armed = value != 0;
	ctx->interval = interval;
	if (ctx->armed) {
		u64 now = timerfd_now(ctx);

		ctx->next = flags & TFD_TIMER_ABSTIME ? value :
			    value > KTIME_MAX - now ? KTIME_MAX : now + value;
		timerfd_arm(ctx);
	} else {
		del_timer_sync(&ctx->t);
	}
	fput(f);
	if (otmr && copy_to_user(otmr, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}
SYSCALL(__NR_timerfd_settime, sys_timerfd_settime);

static long sys_timerfd_gettime(int fd, struct itimerspec __user *otmr)
{
	struct timerfd_ctx *ctx;
	struct itimerspec cur;
	struct file *f;
	long err;

	ctx = timerfd_fget(fd, &f, &err);
	if (!ctx)
		return err;
	timerfd_get(ctx, &cur);
	fput(f);
	return copy_to_user(otmr, &cur, sizeof(cur)) ? -EFAULT : 0;
}
SYSCALL(__NR_timerfd_gettime, sys_timerfd_gettime);
