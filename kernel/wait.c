/* kernel/wait.c — wait queues (Linux's kernel/sched/wait.c): a task
 * sleeps on one until woken; wake_up wakes every entry, a task through
 * wake_up_process or a callback (epoll's). */
#include <zpk/bug.h>
#include <zpk/errno.h>
#include <zpk/sched.h>
#include <zpk/wait.h>

/* Any context: wq's lock, then a task's rq lock in wake_up_process. */
void wake_up(struct wait_queue_head *wq)
{
	struct wait_queue_entry *e;
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	list_for_each_entry(e, &wq->head, entry) {
		if (e->func)
			e->func(e, 0);
		else
			wake_up_process(e->task);
	}
	spin_unlock_irqrestore(&wq->lock, flags);
}

void wake_up_pollfree(struct wait_queue_head *wq)
{
	struct wait_queue_entry *e, *n;
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	list_for_each_entry_safe(e, n, &wq->head, entry) {
		BUG_ON(!e->func);
		e->func(e, POLLFREE);
	}
	spin_unlock_irqrestore(&wq->lock, flags);
}

void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *e,
		     int state)
{
	unsigned long flags;

	BUG_ON(is_idle_task(current));	/* idle must never sleep */
	spin_lock_irqsave(&wq->lock, flags);
	/* Not queued yet: as declared (next NULL), or after finish_wait. */
	if (!e->entry.next || list_empty(&e->entry))
		list_add_tail(&e->entry, &wq->head);
	set_current_state(state);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *e)
{
	unsigned long flags;

	__set_current_state(TASK_RUNNING);
	spin_lock_irqsave(&wq->lock, flags);
	if (e->entry.next && !list_empty(&e->entry))
		list_del_init(&e->entry);
	spin_unlock_irqrestore(&wq->lock, flags);
}

int sleep_on(struct wait_queue_head *wq)
{
	struct wait_queue_entry e = { .task = current };

	if (signal_pending(current))
		return -ERESTARTSYS;
	BUG_ON(is_idle_task(current));	/* idle must never sleep */
	prepare_to_wait(wq, &e, TASK_INTERRUPTIBLE);
	schedule();
	finish_wait(wq, &e);
	return signal_pending(current) ? -ERESTARTSYS : 0;
}
