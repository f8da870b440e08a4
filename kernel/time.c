/* kernel/time.c — the time system calls: clock_gettime, clock_getres,
 * gettimeofday and time, on top of the clocks of arch/x86_64/time.c. */
#include <zpk/errno.h>
#include <zpk/syscalls.h>
#include <zpk/time.h>
#include <zpk/uaccess.h>

/* The clock's time in ns, or -EINVAL.  Coarse clocks keep tick steps. */
static long clock_read_ns(int which, u64 *ns)
{
	switch (which) {
	case CLOCK_REALTIME:
		*ns = ktime_get_real_ns();
		return 0;
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_BOOTTIME:		/* no suspend: same as monotonic */
		*ns = ktime_get_ns();
		return 0;
	case CLOCK_REALTIME_COARSE:
		*ns = ktime_get_real_ns();
		*ns -= *ns % TICK_NSEC;
		return 0;
	case CLOCK_MONOTONIC_COARSE:
		*ns = ktime_get_ns();
		*ns -= *ns % TICK_NSEC;
		return 0;
	}
	return -EINVAL;
}

static long put_timespec(u64 ns, struct __kernel_timespec __user *tp)
{
	struct __kernel_timespec ts = {
		.tv_sec = ns / NSEC_PER_SEC,
		.tv_nsec = ns % NSEC_PER_SEC,
	};

	return copy_to_user(tp, &ts, sizeof(ts)) ? -EFAULT : 0;
}

static long sys_clock_gettime(int which, struct __kernel_timespec __user *tp)
{
	u64 ns;
	long err = clock_read_ns(which, &ns);

	return err ? err : put_timespec(ns, tp);
}
SYSCALL(__NR_clock_gettime, sys_clock_gettime);

static long sys_clock_getres(int which, struct __kernel_timespec __user *tp)
{
	u64 ns;
	long err = clock_read_ns(which, &ns);

	if (err || !tp)
		return err;
	if (which == CLOCK_REALTIME_COARSE || which == CLOCK_MONOTONIC_COARSE)
		return put_timespec(TICK_NSEC, tp);
	return put_timespec(1, tp);	/* the TSC clocks */
}
SYSCALL(__NR_clock_getres, sys_clock_getres);

static long sys_gettimeofday(struct __kernel_old_timeval __user *tv,
			     struct timezone __user *tz)
{
	static const struct timezone utc;	/* zpk keeps UTC */
	u64 ns = ktime_get_real_ns();
	struct __kernel_old_timeval t = {
		.tv_sec = ns / NSEC_PER_SEC,
		.tv_usec = ns % NSEC_PER_SEC / NSEC_PER_USEC,
	};

	if (tv && copy_to_user(tv, &t, sizeof(t)))
		return -EFAULT;
	if (tz && copy_to_user(tz, &utc, sizeof(utc)))
		return -EFAULT;
	return 0;
}
SYSCALL(__NR_gettimeofday, sys_gettimeofday);

static long sys_time(long __user *tloc)
{
	long t = ktime_get_real_ns() / NSEC_PER_SEC;

	if (tloc && put_user(t, tloc))
		return -EFAULT;
	return t;
}
SYSCALL(__NR_time, sys_time);
