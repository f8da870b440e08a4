/* zpk/wait.h — wait queues: sleep until a condition holds, woken by others
 * (Linux's wait_queue_head, prepare_to_wait, wait_event). */
#ifndef ZPK_WAIT_H
#define ZPK_WAIT_H

#include <zpk/list.h>
#include <zpk/spinlock.h>

struct wait_queue_head {
	spinlock_t lock;		/* protects head; irqsave: handlers wake */
	struct list_head head;		/* of struct wait_queue_entry */
};

struct task_struct;
/* A waiter: a task to wake, or (func set) a callback that wake_up calls
 * instead, with wq's lock held and maybe from an interrupt handler
 * (Linux's wait_queue_func_t; epoll's ep_poll_callback). key is 0, or
 * POLLFREE: the queue is about to be freed, and the entry must leave. */
struct wait_queue_entry {
	struct task_struct *task;
	struct list_head entry;
	void (*func)(struct wait_queue_entry *e, unsigned int key);
};
#define POLLFREE	0x4000	/* Linux's: the queue itself goes */

#define WAIT_QUEUE_HEAD_INIT(name) {					\
	.lock = __SPIN_LOCK_UNLOCKED(name.lock),			\
	.head = LIST_HEAD_INIT((name).head) }
static inline void init_waitqueue_head(struct wait_queue_head *wq)
{
	spin_lock_init(&wq->lock);
	INIT_LIST_HEAD(&wq->head);
}

/* Wake every task sleeping on wq (they re-check their conditions), and
 * call each entry's func. */
void wake_up(struct wait_queue_head *wq);
/* The queue is going (Linux's wake_up_pollfree): each func is called
 * with POLLFREE and takes its entry off; no task may be left on it. */
void wake_up_pollfree(struct wait_queue_head *wq);

/*
 * Sleep once on wq: returns after a wake_up, or at once if a signal is
 * pending (then -ERESTARTSYS, which the system call returns: the signal
 * code makes it EINTR or restarts the call). Callers loop on their
 * condition, which they test under the big kernel lock, as their wakers
 * change it: the lock goes only when schedule() has them on wq and
 * asleep, so no wake-up falls between the test and the sleep.
 */
int sleep_on(struct wait_queue_head *wq);

/* For a condition that a waker without the big kernel lock changes (an
 * interrupt handler): current goes on wq and into state first, then
 * tests the condition, so a wake-up after the test finds it there. */
void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *e,
		     int state);
void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *e);

/* Sleep until cond is true; -ERESTARTSYS if a signal comes first, else 0. */
#define wait_event_interruptible(wq, cond) ({				\
	struct wait_queue_entry __e = { .task = current };		\
	int __ret = 0;							\
	for (;;) {							\
		prepare_to_wait(&(wq), &__e, TASK_INTERRUPTIBLE);	\
		if (cond)						\
			break;						\
		if (signal_pending(current)) {				\
			__ret = -ERESTARTSYS;				\
			break;						\
		}							\
		schedule();						\
	}								\
	finish_wait(&(wq), &__e);					\
	__ret;								\
})

#endif
