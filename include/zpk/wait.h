/* zpk/wait.h — wait queues: sleep until a condition holds, woken by others.
 * One CPU: interrupts are off between testing the condition and sleeping. */
#ifndef ZPK_WAIT_H
#define ZPK_WAIT_H

#include <zpk/list.h>

struct wait_queue_head {
	struct list_head head;		/* of struct wait_queue_entry */
};

struct task_struct;
struct wait_queue_entry {
	struct task_struct *task;
	struct list_head entry;
};

#define WAIT_QUEUE_HEAD_INIT(name) { LIST_HEAD_INIT((name).head) }
static inline void init_waitqueue_head(struct wait_queue_head *wq)
{
	INIT_LIST_HEAD(&wq->head);
}

/* Wake every task sleeping on wq (they re-check their conditions). */
void wake_up(struct wait_queue_head *wq);

/* Sleep once on wq: returns after a wake_up, or at once if a signal is
 * pending (then -ERESTARTSYS, which the system call returns: the signal
 * code makes it EINTR or restarts the call). Callers loop on their
 * condition. */
int sleep_on(struct wait_queue_head *wq);

/* Sleep until cond is true; -ERESTARTSYS if a signal comes first, else 0. */
#define wait_event_interruptible(wq, cond) ({				\
	int __ret = 0;							\
	while (!(cond)) {						\
		__ret = sleep_on(&(wq));				\
		if (__ret)						\
			break;						\
	}								\
	__ret;								\
})

#endif
