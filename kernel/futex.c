/* kernel/futex.c — futex WAIT and WAKE, enough for musl's locks: waiters
 * are matched by (address space, user address), one queue for all. */
#include <zpk/errno.h>
#include <zpk/sched.h>
#include <zpk/syscalls.h>
#include <zpk/time.h>
#include <zpk/uaccess.h>

#define FUTEX_WAIT		0
#define FUTEX_WAKE		1
#define FUTEX_PRIVATE_FLAG	128
#define FUTEX_CLOCK_REALTIME	256

struct futex_waiter {
	struct task_struct *task;
	struct mm_struct *mm;
	unsigned long uaddr;
	bool woken;
	struct list_head list;
};

static LIST_HEAD(futex_waiters);

/* Sleeps while *uaddr == val until a FUTEX_WAKE, a signal or timeout. */
static long futex_wait(u32 __user *uaddr, u32 val,
		       const struct __kernel_timespec __user *timeout)
{
	struct futex_waiter w = { .task = current, .mm = current->mm,
				  .uaddr = (unsigned long)uaddr };
	struct __kernel_timespec ts;
	u64 deadline = 0;
	u32 cur;
	long ret = 0;

	if (timeout) {
		if (copy_from_user(&ts, timeout, sizeof(ts)))
			return -EFAULT;
		if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= 1000000000)
			return -EINVAL;
		deadline = ktime_get_ns() + (u64)ts.tv_sec * 1000000000ULL +
			   (u64)ts.tv_nsec;
	}
	if (copy_from_user(&cur, uaddr, sizeof(cur)))
		return -EFAULT;
	if (cur != val)
		return -EAGAIN;
	list_add_tail(&w.list, &futex_waiters);
	while (!w.woken) {
		if (signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		if (deadline && ktime_get_ns() >= deadline) {
			ret = -ETIMEDOUT;
			break;
		}
		current->wake_at_ns = deadline;
		current->state = TASK_INTERRUPTIBLE;
		schedule();
		current->wake_at_ns = 0;
	}
	list_del(&w.list);
	return ret;
}

long futex_wake(u32 __user *uaddr, int nr)
{
	struct futex_waiter *w;
	long woken = 0;

	list_for_each_entry(w, &futex_waiters, list) {
		if (woken >= nr)
			break;
		if (w->woken || w->mm != current->mm ||
		    w->uaddr != (unsigned long)uaddr)
			continue;
		w->woken = true;
		wake_up_process(w->task);
		woken++;
	}
	return woken;
}

/* Linux's get_futex_key checks first: alignment (-EINVAL), then a user
 * address (-EFAULT), for WAKE as for WAIT. */
static long sys_futex(u32 __user *uaddr, int op, u32 val,
		      const struct __kernel_timespec __user *timeout)
{
	if ((unsigned long)uaddr & 3)
		return -EINVAL;
	if (!access_ok(uaddr, sizeof(u32)))
		return -EFAULT;
	switch (op & ~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME)) {
	case FUTEX_WAIT:
		return futex_wait(uaddr, val, timeout);
	case FUTEX_WAKE:
		return futex_wake(uaddr, (int)val);
	}
	return -ENOSYS;
}
SYSCALL(__NR_futex, sys_futex);
