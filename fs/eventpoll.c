/* fs/eventpoll.c — epoll as Linux's fs/eventpoll.c: an epoll file keeps
 * an item per watched (file, fd); each item waits on its file's wait
 * queues with a callback (ep_poll_callback) that puts it on the ready
 * list, and epoll_wait reports the ready items' events, polling each
 * again: level-triggered items stay on the list, EPOLLET ones wait for
 * the next wake-up, EPOLLONESHOT ones for EPOLL_CTL_MOD. epoll_ctl and
 * epoll_wait run under the big kernel lock; the callbacks come without
 * it (another CPU, an interrupt), so the ready list has a spinlock. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/sched.h>
#include <zpk/signal.h>
#include <zpk/slab.h>
#include <zpk/syscalls.h>
#include <zpk/time.h>
#include <zpk/uaccess.h>

#define EPOLL_CTL_ADD	1
#define EPOLL_CTL_DEL	2
#define EPOLL_CTL_MOD	3
#define EPOLL_CLOEXEC	O_CLOEXEC

#define EPOLLIN		0x00000001
#define EPOLLOUT	0x00000004
#define EPOLLERR	0x00000008
#define EPOLLHUP	0x00000010
#define EPOLLEXCLUSIVE	(1U << 28)
#define EPOLLWAKEUP	(1U << 29)
#define EPOLLONESHOT	(1U << 30)
#define EPOLLET		(1U << 31)
/* Bits that are not events: a EPOLLONESHOT item keeps only these. */
#define EP_PRIVATE_BITS	(EPOLLWAKEUP | EPOLLONESHOT | EPOLLET | EPOLLEXCLUSIVE)
#define EPOLLEXCLUSIVE_OK_BITS	(EPOLLIN | EPOLLOUT | EPOLLERR | EPOLLHUP | \
				 EPOLLWAKEUP | EPOLLET | EPOLLEXCLUSIVE)
#define EP_MAX_NESTS	4
#define EP_MAX_EVENTS	(0x7fffffff / sizeof(struct epoll_event))
#define EP_BATCH	(PAGE_SIZE / sizeof(struct epoll_event))
#define EP_FOREVER	(~0ULL)

struct epoll_event {
	u32 events;
	u64 data;
} __packed;

struct eventpoll {
	spinlock_t lock;		/* rdllist and each rdllink, the
					 * items' events: the callbacks' */
	struct list_head rdllist;	/* items that may have events */
	struct wait_queue_head wq;	/* epoll_wait's sleepers */
	struct wait_queue_head poll_wait;	/* poll of the epoll file */
	struct list_head items;		/* every epitem */
};

struct epitem {
	struct list_head link;		/* in ep->items */
	struct list_head rdllink;	/* in ep->rdllist, or empty */
	struct epitem *fnext;		/* the next on file->f_ep */
	struct eventpoll *ep;
	struct file *file;		/* not held: its last fput removes us */
	int fd;
	struct epoll_event event;
	struct list_head pwqlist;	/* its eppoll_entries */
	bool nomem;			/* a wait queue could not be joined */
};

/* The item's place on one of its file's wait queues. */
struct eppoll_entry {
	struct list_head llink;		/* in epi->pwqlist */
	struct epitem *base;
	struct wait_queue_entry wait;
	struct wait_queue_head *whead;
};

/* The poll_table with which ep_insert polls a new item's file. */
struct ep_pqueue {
	struct poll_table pt;
	struct epitem *epi;
};

static const struct file_operations eventpoll_fops;

static bool is_file_epoll(const struct file *f)
{
	return f->f_op == &eventpoll_fops;
}

/*
 * A wake-up of one of the item's wait queues (Linux's ep_poll_callback):
 * with that queue's lock held, maybe in an interrupt. The item goes on
 * the ready list, unless disabled by EPOLLONESHOT, and epoll_wait's
 * sleepers and the epoll file's pollers are woken. POLLFREE: the queue
 * goes too (a sighand's signalfd_wqh, under the big kernel lock, as
 * every ep_free_item), so the item then forgets it.
 */
static void ep_poll_callback(struct wait_queue_entry *wait, unsigned int key)
{
	struct eppoll_entry *pwq = container_of(wait, struct eppoll_entry,
						wait);
	struct epitem *epi = pwq->base;
	struct eventpoll *ep = epi->ep;
	unsigned long flags;

	spin_lock_irqsave(&ep->lock, flags);
	if (epi->event.events & ~EP_PRIVATE_BITS) {
		if (list_empty(&epi->rdllink))
			list_add_tail(&epi->rdllink, &ep->rdllist);
		spin_unlock_irqrestore(&ep->lock, flags);
		wake_up(&ep->wq);
		wake_up(&ep->poll_wait);
	} else {
		spin_unlock_irqrestore(&ep->lock, flags);
	}
	if (key & POLLFREE) {		/* a signalfd's sighand is going */
		list_del_init(&wait->entry);
		pwq->whead = NULL;
	}
}

/* ep_insert's qproc: the item joins wq with ep_poll_callback. */
static void ep_ptable_queue_proc(struct file *f, struct wait_queue_head *wq,
				 struct poll_table *pt)
{
	struct epitem *epi = container_of(pt, struct ep_pqueue, pt)->epi;
	struct eppoll_entry *pwq = kzalloc(sizeof(*pwq), GFP_KERNEL);
	unsigned long flags;

	(void)f;
	if (!pwq) {
		epi->nomem = true;
		return;
	}
	pwq->base = epi;
	pwq->whead = wq;
	pwq->wait.func = ep_poll_callback;
	spin_lock_irqsave(&wq->lock, flags);
	list_add_tail(&pwq->wait.entry, &wq->head);
	spin_unlock_irqrestore(&wq->lock, flags);
	list_add_tail(&pwq->llink, &epi->pwqlist);
}

/* The events of epi's file it watches for (0 while disabled). */
static u32 ep_item_poll(struct epitem *epi, struct poll_table *pt)
{
	struct file *f = epi->file;
	u32 mask = f->f_op && f->f_op->poll ? f->f_op->poll(f, pt) : 0;

	return mask & epi->event.events;
}

static bool ep_is_linked(struct epitem *epi)
{
	return !list_empty(&epi->rdllink);
}

/* epi on the ready list if it is not, and its watchers woken. */
static void ep_ready(struct eventpoll *ep, struct epitem *epi)
{
	unsigned long flags;

	spin_lock_irqsave(&ep->lock, flags);
	if (!ep_is_linked(epi))
		list_add_tail(&epi->rdllink, &ep->rdllist);
	spin_unlock_irqrestore(&ep->lock, flags);
	wake_up(&ep->wq);
	wake_up(&ep->poll_wait);
}

/* Takes epi off its file's wait queues and the ready list and frees it;
 * once each queue's lock has been had, no callback is still running on
 * it. The caller has taken it off ep->items and the file's f_ep. */
static void ep_free_item(struct epitem *epi)
{
	struct eppoll_entry *pwq, *n;
	unsigned long flags;

	list_for_each_entry_safe(pwq, n, &epi->pwqlist, llink) {
		if (pwq->whead) {	/* NULL: freed meanwhile (POLLFREE) */
			spin_lock_irqsave(&pwq->whead->lock, flags);
			list_del(&pwq->wait.entry);
			spin_unlock_irqrestore(&pwq->whead->lock, flags);
		}
		kfree(pwq);
	}
	spin_lock_irqsave(&epi->ep->lock, flags);
	list_del_init(&epi->rdllink);
	spin_unlock_irqrestore(&epi->ep->lock, flags);
	kfree(epi);
}

/* EPOLL_CTL_DEL, an epoll file's release, or its file's last fput. */
static void ep_remove(struct epitem *epi)
{
	struct epitem **pp = &epi->file->f_ep;

	while (*pp != epi)
		pp = &(*pp)->fnext;
	*pp = epi->fnext;
	list_del(&epi->link);
	ep_free_item(epi);
}

static struct epitem *ep_find(struct eventpoll *ep, struct file *f, int fd)
{
	struct epitem *epi;

	list_for_each_entry(epi, &ep->items, link)
		if (epi->file == f && epi->fd == fd)
			return epi;
	return NULL;
}

/*
 * EPOLL_CTL_ADD (Linux's ep_insert): a new item joins tf's wait queues
 * (polling it, which may sleep for memory), then ep's items; ready at
 * once if tf already has an event. 0, -ENOMEM, or -EEXIST if another
 * thread added the same (file, fd) meanwhile.
 */
static int ep_insert(struct eventpoll *ep, const struct epoll_event *event,
		     struct file *tf, int fd)
{
	struct epitem *epi = kzalloc(sizeof(*epi), GFP_KERNEL);
	struct ep_pqueue epq = { { ep_ptable_queue_proc }, epi };
	u32 revents;

	if (!epi)
		return -ENOMEM;
	INIT_LIST_HEAD(&epi->rdllink);
	INIT_LIST_HEAD(&epi->pwqlist);
	epi->ep = ep;
	epi->file = tf;
	epi->fd = fd;
	epi->event = *event;
	revents = ep_item_poll(epi, &epq.pt);
	if (epi->nomem || ep_find(ep, tf, fd)) {
		int err = epi->nomem ? -ENOMEM : -EEXIST;

		ep_free_item(epi);
		return err;
	}
	list_add_tail(&epi->link, &ep->items);
	epi->fnext = tf->f_ep;
	tf->f_ep = epi;
	if (revents)
		ep_ready(ep, epi);
	return 0;
}

/* EPOLL_CTL_MOD: new events and data; ready at once if they are there. */
static void ep_modify(struct eventpoll *ep, struct epitem *epi,
		      const struct epoll_event *event)
{
	unsigned long flags;

	spin_lock_irqsave(&ep->lock, flags);
	epi->event = *event;
	spin_unlock_irqrestore(&ep->lock, flags);
	if (ep_item_poll(epi, NULL))
		ep_ready(ep, epi);
}

/*
 * Would watching to from ep make a cycle, or nest epoll files more than
 * EP_MAX_NESTS deep below ep (Linux's ep_loop_check)? -ELOOP or 0.
 */
static int ep_loop_check(struct eventpoll *ep, struct eventpoll *to,
			 int depth)
{
	struct epitem *epi;

	if (to == ep || depth > EP_MAX_NESTS)
		return -ELOOP;
	list_for_each_entry(epi, &to->items, link)
		if (is_file_epoll(epi->file) &&
		    ep_loop_check(ep, epi->file->private_data, depth + 1))
			return -ELOOP;
	return 0;
}

/* Its file's last fput: every item watching f goes. */
void eventpoll_release_file(struct file *f)
{
	while (f->f_ep)
		ep_remove(f->f_ep);
}

static void ep_eventpoll_release(struct file *f)
{
	struct eventpoll *ep = f->private_data;

	while (!list_empty(&ep->items))
		ep_remove(list_first_entry(&ep->items, struct epitem, link));
	kfree(ep);
}

/*
 * Reports ready items' events into events[0..max) (Linux's
 * ep_send_events): each is polled again; one with none is dropped, a
 * level-triggered one goes back on the list for the next call, an
 * EPOLLONESHOT one is disabled. The big kernel lock is held and nothing
 * here sleeps, so no epoll_ctl or release runs meanwhile; the callbacks
 * leave an item alone while it is on txlist (its rdllink not empty).
 */
static int ep_send_events(struct eventpoll *ep, struct epoll_event *events,
			  int max)
{
	struct epitem *epi, *tmp;
	unsigned long flags;
	LIST_HEAD(txlist);
	int n = 0;
	u32 revents;

	spin_lock_irqsave(&ep->lock, flags);
	list_splice_init(&ep->rdllist, &txlist);
	spin_unlock_irqrestore(&ep->lock, flags);
	list_for_each_entry_safe(epi, tmp, &txlist, rdllink) {
		if (n >= max)
			break;
		spin_lock_irqsave(&ep->lock, flags);
		list_del_init(&epi->rdllink);
		spin_unlock_irqrestore(&ep->lock, flags);
		revents = ep_item_poll(epi, NULL);
		if (!revents)
			continue;
		events[n].events = revents;
		events[n].data = epi->event.data;
		n++;
		spin_lock_irqsave(&ep->lock, flags);
		if (epi->event.events & EPOLLONESHOT)
			epi->event.events &= EP_PRIVATE_BITS;
		else if (!(epi->event.events & EPOLLET) && !ep_is_linked(epi))
			list_add_tail(&epi->rdllink, &ep->rdllist);
		spin_unlock_irqrestore(&ep->lock, flags);
	}
	spin_lock_irqsave(&ep->lock, flags);
	list_splice(&txlist, &ep->rdllist);	/* the ones not looked at */
	spin_unlock_irqrestore(&ep->lock, flags);
	return n;
}

/*
 * Waits until some item has events or end (ktime ns, EP_FOREVER: none)
 * passes (Linux's ep_poll); a signal ends the wait with -EINTR, which
 * epoll never restarts. Returns the events written to the user's array.
 */
static long ep_poll(struct eventpoll *ep, struct epoll_event __user *uevents,
		    int maxevents, u64 end)
{
	int max = maxevents < (int)EP_BATCH ? maxevents : (int)EP_BATCH;
	struct epoll_event *events = kmalloc(max * sizeof(*events),
					     GFP_KERNEL);
	struct wait_queue_entry wait = { .task = current };
	long n;

	if (!events)
		return -ENOMEM;
	for (;;) {
		n = ep_send_events(ep, events, max);
		if (n || ktime_get_ns() >= end)
			break;
		if (signal_pending(current)) {
			n = -EINTR;
			break;
		}
		prepare_to_wait(&ep->wq, &wait, TASK_INTERRUPTIBLE);
		if (list_empty(&ep->rdllist) && !signal_pending(current)) {
			current->wake_at_ns = end == EP_FOREVER ? 0 : end;
			schedule();
			current->wake_at_ns = 0;
		}
		finish_wait(&ep->wq, &wait);
	}
	if (n > 0 && copy_to_user(uevents, events, n * sizeof(*events)))
		n = -EFAULT;
	kfree(events);
	return n;
}

/* The epoll file is readable while an item has events (Linux's
 * ep_eventpoll_poll, which polls them too). */
static unsigned int ep_eventpoll_poll(struct file *f, struct poll_table *pt)
{
	struct eventpoll *ep = f->private_data;
	struct epitem *epi, *tmp;
	unsigned long flags;
	unsigned int res = 0;
	LIST_HEAD(txlist);

	poll_wait(f, &ep->poll_wait, pt);
	spin_lock_irqsave(&ep->lock, flags);
	list_splice_init(&ep->rdllist, &txlist);
	spin_unlock_irqrestore(&ep->lock, flags);
	list_for_each_entry_safe(epi, tmp, &txlist, rdllink) {
		if (ep_item_poll(epi, NULL)) {
			res = POLLIN | POLLRDNORM;
			break;
		}
		/* nothing after all: off the list, as Linux's */
		spin_lock_irqsave(&ep->lock, flags);
		list_del_init(&epi->rdllink);
		spin_unlock_irqrestore(&ep->lock, flags);
	}
	spin_lock_irqsave(&ep->lock, flags);
	list_splice(&txlist, &ep->rdllist);
	spin_unlock_irqrestore(&ep->lock, flags);
	return res;
}

/* No read or write: -EINVAL, as Linux's. */
static const struct file_operations eventpoll_fops = {
	.poll = ep_eventpoll_poll,
	.release = ep_eventpoll_release,
};

static long sys_epoll_create1(int flags)
{
	struct eventpoll *ep;
	struct file *f;
	int fd;

	if (flags & ~EPOLL_CLOEXEC)
		return -EINVAL;
	ep = kzalloc(sizeof(*ep), GFP_KERNEL);
	if (!ep)
		return -ENOMEM;
	spin_lock_init(&ep->lock);
	INIT_LIST_HEAD(&ep->rdllist);
	INIT_LIST_HEAD(&ep->items);
	init_waitqueue_head(&ep->wq);
	init_waitqueue_head(&ep->poll_wait);
	f = anon_inode_getfile("[eventpoll]", &eventpoll_fops, ep, O_RDWR);
	if (!f) {
		kfree(ep);
		return -ENOMEM;
	}
	fd = fd_install_new(f, 0, flags & EPOLL_CLOEXEC);
	if (fd < 0)
		fput(f);
	return fd;
}
SYSCALL(__NR_epoll_create1, sys_epoll_create1);

static long sys_epoll_create(int size)
{
	if (size <= 0)
		return -EINVAL;
	return sys_epoll_create1(0);
}
SYSCALL(__NR_epoll_create, sys_epoll_create);

/* epoll_ctl's checks in Linux's order (do_epoll_ctl), then the op. */
static long do_epoll_ctl(int op, struct file *f, struct file *tf, int fd,
			 struct epoll_event *epds)
{
	struct eventpoll *ep;
	struct epitem *epi;
	int error;

	if (!tf->f_op || !tf->f_op->poll)
		return -EPERM;		/* a regular file cannot be polled */
	if (f == tf || !is_file_epoll(f))
		return -EINVAL;
	if (op != EPOLL_CTL_DEL && (epds->events & EPOLLEXCLUSIVE)) {
		if (op == EPOLL_CTL_MOD)
			return -EINVAL;
		if (op == EPOLL_CTL_ADD && (is_file_epoll(tf) ||
		    (epds->events & ~EPOLLEXCLUSIVE_OK_BITS)))
			return -EINVAL;
	}
	ep = f->private_data;
	if (op == EPOLL_CTL_ADD && is_file_epoll(tf)) {
		error = ep_loop_check(ep, tf->private_data, 0);
		if (error)
			return error;
	}
	epi = ep_find(ep, tf, fd);
	switch (op) {
	case EPOLL_CTL_ADD:
		if (epi)
			return -EEXIST;
		epds->events |= EPOLLERR | EPOLLHUP;
		return ep_insert(ep, epds, tf, fd);
	case EPOLL_CTL_DEL:
		if (!epi)
			return -ENOENT;
		ep_remove(epi);
		return 0;
	case EPOLL_CTL_MOD:
		if (!epi)
			return -ENOENT;
		if (epi->event.events & EPOLLEXCLUSIVE)
			return -EINVAL;
		epds->events |= EPOLLERR | EPOLLHUP;
		ep_modify(ep, epi, epds);
		return 0;
	}
	return -EINVAL;
}

static long sys_epoll_ctl(int epfd, int op, int fd,
			  struct epoll_event __user *event)
{
	struct epoll_event epds = { 0 };
	struct file *f, *tf;
	long error = -EBADF;

	if (op != EPOLL_CTL_DEL && copy_from_user(&epds, event, sizeof(epds)))
		return -EFAULT;
	f = fget(epfd);
	if (!f)
		return -EBADF;
	tf = fget(fd);
	if (tf) {
		error = do_epoll_ctl(op, f, tf, fd, &epds);
		fput(tf);
	}
	fput(f);
	return error;
}
SYSCALL(__NR_epoll_ctl, sys_epoll_ctl);

/* epoll_wait's checks (Linux's do_epoll_wait), then the wait. */
static long do_epoll_wait(int epfd, struct epoll_event __user *events,
			  int maxevents, u64 end)
{
	struct file *f;
	long ret;

	if (maxevents <= 0 || (unsigned long)maxevents > EP_MAX_EVENTS)
		return -EINVAL;
	if (!access_ok(events, maxevents * sizeof(struct epoll_event)))
		return -EFAULT;
	f = fget(epfd);
	if (!f)
		return -EBADF;
	ret = is_file_epoll(f) ? ep_poll(f->private_data, events, maxevents,
					 end)
			       : -EINVAL;
	fput(f);
	return ret;
}

static u64 ep_timeout_ms(int ms)
{
	return ms < 0 ? EP_FOREVER : ktime_get_ns() + ms * NSEC_PER_MSEC;
}

static long sys_epoll_wait(int epfd, struct epoll_event __user *events,
			   int maxevents, int timeout)
{
	return do_epoll_wait(epfd, events, maxevents, ep_timeout_ms(timeout));
}
SYSCALL(__NR_epoll_wait, sys_epoll_wait);

/* epoll_pwait's mask holds while it waits and, if a signal ends the
 * wait, while the handler runs (Linux's). */
static long epoll_pwait_end(int epfd, struct epoll_event __user *events,
			    int maxevents, u64 end,
			    const sigset_t __user *sigmask, size_t sigsetsize)
{
	long error = set_user_sigmask(sigmask, sigsetsize);

	if (error)
		return error;
	error = do_epoll_wait(epfd, events, maxevents, end);
	restore_saved_sigmask_unless(error == -EINTR);
	return error;
}

static long sys_epoll_pwait(int epfd, struct epoll_event __user *events,
			    int maxevents, int timeout,
			    const sigset_t __user *sigmask, size_t sigsetsize)
{
	return epoll_pwait_end(epfd, events, maxevents, ep_timeout_ms(timeout),
			       sigmask, sigsetsize);
}
SYSCALL(__NR_epoll_pwait, sys_epoll_pwait);

/* epoll_pwait2: a timespec (NULL: for ever) instead of milliseconds. */
static long sys_epoll_pwait2(int epfd, struct epoll_event __user *events,
			     int maxevents,
			     const struct __kernel_timespec __user *timeout,
			     const sigset_t __user *sigmask, size_t sigsetsize)
{
	u64 end = EP_FOREVER, ns;
	long error;

	if (timeout) {
		error = timespec_from_user(timeout, &ns);
		if (error)
			return error;
		end = ktime_get_ns() + ns;
	}
	return epoll_pwait_end(epfd, events, maxevents, end, sigmask,
			       sigsetsize);
}
SYSCALL(__NR_epoll_pwait2, sys_epoll_pwait2);
