/* fs/select.c — poll(2) and ppoll(2) as Linux's fs/select.c: each file's
 * poll operation says which events it has now and puts the poller on the
 * wait queues that will say when they change, so one sleep waits on all. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/sched.h>
#include <zpk/signal.h>
#include <zpk/slab.h>
#include <zpk/syscalls.h>
#include <zpk/time.h>
#include <zpk/uaccess.h>

/* What a file without a poll operation always is (Linux's). */
#define DEFAULT_POLLMASK (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)
#define POLL_FOREVER	(~0ULL)

struct pollfd {
	int fd;
	short events, revents;
};

/* One wait queue a poll sleeps on (Linux's poll_table_entry), and the
 * file it belongs to, held: closed meanwhile, it must not go (nor, with
 * it, the queue). */
struct poll_table_entry {
	struct wait_queue_entry wait;	/* on *wait_address, its lock's */
	struct wait_queue_head *wait_address;
	struct file *filp;
	struct list_head list;		/* in poll_wqueues.entries */
};

/* The wait queues of one poll (Linux's poll_wqueues); error: an entry
 * could not be had, so the poll cannot sleep on every queue. */
struct poll_wqueues {
	struct poll_table pt;
	struct list_head entries;
	int error;
};

/* poll(2)'s qproc (Linux's __pollwait): current goes on wq. */
static void __pollwait(struct file *f, struct wait_queue_head *wq,
		       struct poll_table *_pt)
{
	struct poll_wqueues *pt = container_of(_pt, struct poll_wqueues, pt);
	struct poll_table_entry *e;
	unsigned long flags;

	e = kmalloc(sizeof(*e), GFP_KERNEL);
	if (!e) {
		pt->error = -ENOMEM;
		return;
	}
	e->wait.task = current;
	e->wait.func = NULL;
	e->wait_address = wq;
	e->filp = get_file(f);
	spin_lock_irqsave(&wq->lock, flags);	/* wakers walk it */
	list_add_tail(&e->wait.entry, &wq->head);
	spin_unlock_irqrestore(&wq->lock, flags);
	list_add_tail(&e->list, &pt->entries);
}

/* Takes the poller off every wait queue (Linux's poll_freewait). */
static void poll_freewait(struct poll_wqueues *pt)
{
	struct poll_table_entry *e, *n;
	unsigned long flags;

	list_for_each_entry_safe(e, n, &pt->entries, list) {
		spin_lock_irqsave(&e->wait_address->lock, flags);
		list_del(&e->wait.entry);
		spin_unlock_irqrestore(&e->wait_address->lock, flags);
		fput(e->filp);
		kfree(e);
	}
}

/* One pollfd's revents (Linux's do_pollfd): 0 for a negative fd,
 * POLLNVAL for a closed one; POLLERR and POLLHUP come unasked. */
static short do_pollfd(const struct pollfd *p, struct poll_table *pt)
{
	unsigned int mask, filter;
	struct file *f;

	if (p->fd < 0)
		return 0;
	f = fget(p->fd);
	if (!f)
		return POLLNVAL;
	filter = (unsigned short)p->events | POLLERR | POLLHUP;
	mask = f->f_op && f->f_op->poll ? f->f_op->poll(f, pt)
					: DEFAULT_POLLMASK;
	fput(f);
	return (short)(mask & filter);
}

/*
 * Linux's do_poll: passes over fds until one has an event, end (ktime ns;
 * POLL_FOREVER: none) passes or a signal comes (-ERESTARTNOHAND). Only
 * the first pass registers on the files' wait queues, and only if it may
 * sleep. Returns the number of fds with events, or -errno. Each pass
 * runs in TASK_INTERRUPTIBLE (Linux's set_current_state before it
 * looks): a file's event may come on another CPU without the big kernel
 * lock (a userfault, the tty's kworker), and a wake-up after the look
 * must find us asleep or about to be, not lose itself.
 */
static long do_poll(struct pollfd *fds, unsigned int nfds, u64 end)
{
	struct poll_wqueues table = { { __pollwait },
				      LIST_HEAD_INIT(table.entries), 0 };
	struct poll_table *pt = ktime_get_ns() < end ? &table.pt : NULL;
	long count;

	for (;;) {
		count = 0;
		set_current_state(TASK_INTERRUPTIBLE);
		for (unsigned int i = 0; i < nfds; i++) {
			fds[i].revents = do_pollfd(&fds[i], pt);
			count += fds[i].revents != 0;
		}
		pt = NULL;
		if (count || ktime_get_ns() >= end)
			break;
		if (signal_pending(current)) {
			count = -ERESTARTNOHAND;
			break;
		}
		if (table.error) {
			count = table.error;
			break;
		}
		current->wake_at_ns = end == POLL_FOREVER ? 0 : end;
		schedule();
		current->wake_at_ns = 0;
	}
	__set_current_state(TASK_RUNNING);
	poll_freewait(&table);
	return count;
}

/* Copies the pollfds in, polls, copies every revents back, even after a
 * signal (Linux's do_sys_poll). More fds than RLIMIT_NOFILE: -EINVAL. */
static long do_sys_poll(struct pollfd __user *ufds, unsigned int nfds,
			u64 end)
{
	struct pollfd *fds;
	long ret;

	if (nfds > NR_OPEN_DEFAULT)
		return -EINVAL;
	fds = kmalloc(sizeof(*fds) * (nfds ? nfds : 1), GFP_KERNEL);
	if (!fds)
		return -ENOMEM;
	ret = -EFAULT;
	if (copy_from_user(fds, ufds, sizeof(*fds) * nfds))
		goto out;
	ret = do_poll(fds, nfds, end);
	for (unsigned int i = 0; i < nfds; i++)
		if (put_user(fds[i].revents, &ufds[i].revents))
			ret = -EFAULT;
out:
	kfree(fds);
	return ret;
}

/* poll goes on to the same end after a stop (Linux's do_restart_poll). */
static long do_restart_poll(struct restart_block *rb)
{
	long ret = do_sys_poll(rb->uaddr, rb->val, rb->deadline_ns);

	if (ret == -ERESTARTNOHAND)
		ret = -ERESTART_RESTARTBLOCK;
	return ret;
}

/* poll(fds, nfds, ms): ms < 0 waits for ever, 0 not at all. */
static long sys_poll(struct pollfd __user *ufds, unsigned int nfds, int ms)
{
	u64 end = ms < 0 ? POLL_FOREVER : ktime_get_ns() + ms * NSEC_PER_MSEC;
	long ret = do_sys_poll(ufds, nfds, end);

	if (ret != -ERESTARTNOHAND)
		return ret;
	current->restart_block = (struct restart_block){
		.fn = do_restart_poll, .deadline_ns = end, .uaddr = ufds,
		.val = nfds };
	return -ERESTART_RESTARTBLOCK;
}
SYSCALL(__NR_poll, sys_poll);

/*
 * ppoll(fds, nfds, timeout, sigmask, sigsetsize): a timespec (NULL: for
 * ever), and a mask that holds while it waits and, if a signal ends the
 * wait, while its handler runs. The time left is written back (Linux's
 * poll_select_finish, which ignores a fault there).
 */
static long sys_ppoll(struct pollfd __user *ufds, unsigned int nfds,
		      struct __kernel_timespec __user *utsp,
		      const sigset_t __user *sigmask, size_t sigsetsize)
{
	u64 end = POLL_FOREVER, ns, now;
	struct __kernel_timespec left;
	long ret;

	if (utsp) {
		ret = timespec_from_user(utsp, &ns);
		if (ret)
			return ret;
		end = ktime_get_ns() + ns;
	}
	ret = set_user_sigmask(sigmask, sigsetsize);
	if (ret)
		return ret;
	ret = do_sys_poll(ufds, nfds, end);
	restore_saved_sigmask_unless(ret == -ERESTARTNOHAND);
	if (utsp) {
		now = ktime_get_ns();
		ns = now < end ? end - now : 0;
		left.tv_sec = ns / NSEC_PER_SEC;
		left.tv_nsec = ns % NSEC_PER_SEC;
		(void)copy_to_user(utsp, &left, sizeof(left));
	}
	return ret;
}
SYSCALL(__NR_ppoll, sys_ppoll);
