/* fs/select.c — poll(2): each file says which of POLLIN, POLLOUT, POLLHUP
 * ... it has now, and registers on its wait queues, so that one sleep
 * waits on all of them at once (Linux's poll_table). */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/sched.h>
#include <zpk/signal.h>
#include <zpk/slab.h>
#include <zpk/syscalls.h>
#include <zpk/time.h>
#include <zpk/uaccess.h>

/* What a file without a poll operation always is: ready both ways. */
#define DEFAULT_POLLMASK (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)

/* One wait entry per polled file: each has at most one wait queue. */
struct poll_table {
	struct wait_queue_entry *entries;
	unsigned int n, max;
};

struct pollfd {
	int fd;
	short events, revents;
};

/* Called by a file's poll operation: the poller sleeps on wq too. NULL
 * pt: already registered (a later pass). */
void poll_wait(struct wait_queue_head *wq, struct poll_table *pt)
{
	struct wait_queue_entry *e;

	if (!pt || pt->n >= pt->max)
		return;
	e = &pt->entries[pt->n++];
	e->task = current;
	list_add_tail(&e->entry, &wq->head);
}

/* One pollfd's revents: POLLNVAL for a bad fd, 0 for a negative one;
 * POLLERR and POLLHUP are reported whether asked for or not. */
static short poll_one(const struct pollfd *p, struct poll_table *pt)
{
	unsigned int mask;
	struct file *f;

	if (p->fd < 0)
		return 0;
	f = fget(p->fd);
	if (!f)
		return POLLNVAL;
	mask = f->f_op && f->f_op->poll ? f->f_op->poll(f, pt)
					: DEFAULT_POLLMASK;
	fput(f);
	return (short)(mask & ((unsigned short)p->events | POLLERR | POLLHUP));
}

/*
 * Linux's do_poll: passes over the fds until one is ready, the deadline
 * (ns of ktime_get_ns; 0: none, U64 max: never) passes or a signal
 * comes (-EINTR). The first pass registers on every file's wait queue,
 * so that any of them wakes us; the entries go at the end.
 */
static long do_poll(struct pollfd *fds, unsigned int nfds, u64 deadline)
{
	struct poll_table pt = { NULL, 0, nfds };
	long count;

	pt.entries = kzalloc(sizeof(*pt.entries) * (nfds ? nfds : 1),
			     GFP_KERNEL);
	if (!pt.entries)
		return -ENOMEM;
	for (bool first = true;; first = false) {
		count = 0;
		for (unsigned int i = 0; i < nfds; i++) {
			fds[i].revents = poll_one(&fds[i], first ? &pt : NULL);
			count += fds[i].revents != 0;
		}
		if (count || ktime_get_ns() >= deadline)
			break;
		if (signal_pending(current)) {
			count = -EINTR;
			break;
		}
		current->wake_at_ns = deadline == ~0ULL ? 0 : deadline;
		current->state = TASK_INTERRUPTIBLE;
		schedule();
		current->wake_at_ns = 0;
	}
	for (unsigned int i = 0; i < pt.n; i++)
		list_del(&pt.entries[i].entry);
	kfree(pt.entries);
	return count;
}

/* poll(fds, nfds, ms): ms < 0 waits for ever, 0 not at all. More fds
 * than RLIMIT_NOFILE is -EINVAL, as Linux. */
static long sys_poll(struct pollfd __user *ufds, unsigned int nfds, int ms)
{
	u64 deadline = ms < 0 ? ~0ULL : ktime_get_ns() + (u64)ms * 1000000;
	struct pollfd *fds;
	long r;

	if (nfds > NR_OPEN_DEFAULT)
		return -EINVAL;
	fds = kmalloc(sizeof(*fds) * (nfds ? nfds : 1), GFP_KERNEL);
	if (!fds)
		return -ENOMEM;
	r = copy_from_user(fds, ufds, sizeof(*fds) * nfds) ? -EFAULT : 0;
	if (!r)
		r = do_poll(fds, nfds, deadline);
	/* revents go back even after a signal, as Linux's. */
	for (unsigned int i = 0; r >= 0 && i < nfds; i++)
		if (put_user(fds[i].revents, &ufds[i].revents))
			r = -EFAULT;
	kfree(fds);
	return r;
}
SYSCALL(__NR_poll, sys_poll);
