/* kernel/workqueue.c — deferred work (Linux's kernel/workqueue.c, one
 * queue and one worker): items queued from any context, run in order by
 * the kworker thread, in process context under the big kernel lock. */
#include <asm/signal.h>
#include <zpk/bug.h>
#include <zpk/errno.h>
#include <zpk/sched.h>
#include <zpk/smp_lock.h>
#include <zpk/spinlock.h>
#include <zpk/workqueue.h>

/* Protects work_list and each item's entry; interrupts off (handlers
 * queue). */
static DEFINE_SPINLOCK(work_lock);
static LIST_HEAD(work_list);
static struct wait_queue_head work_wait = WAIT_QUEUE_HEAD_INIT(work_wait);

bool schedule_work(struct work_struct *work)
{
	unsigned long flags;
	bool queued = false;

	spin_lock_irqsave(&work_lock, flags);
	if (list_empty(&work->entry)) {
		list_add_tail(&work->entry, &work_list);
		queued = true;
	}
	spin_unlock_irqrestore(&work_lock, flags);
	if (queued)
		wake_up(&work_wait);
	return queued;
}

/* The first queued item, off the queue (it may be queued again while it
 * runs), or NULL. */
static struct work_struct *next_work(void)
{
	struct work_struct *work = NULL;
	unsigned long flags;

	spin_lock_irqsave(&work_lock, flags);
	if (!list_empty(&work_list)) {
		work = list_first_entry(&work_list, struct work_struct, entry);
		list_del_init(&work->entry);
	}
	spin_unlock_irqrestore(&work_lock, flags);
	return work;
}

static bool work_pending(void)
{
	unsigned long flags;
	bool pending;

	spin_lock_irqsave(&work_lock, flags);
	pending = !list_empty(&work_list);
	spin_unlock_irqrestore(&work_lock, flags);
	return pending;
}

/* The kworker: ignores every signal (a kernel thread has no user mode to
 * act on them in), sleeps until work comes, runs it. */
static int worker_thread(void *unused)
{
	struct work_struct *work;

	(void)unused;
	for (int sig = 1; sig <= _NSIG; sig++)
		current->sighand->action[sig - 1].handler = SIG_IGN;
	lock_kernel();
	for (;;) {
		wait_event_interruptible(work_wait, work_pending());
		while ((work = next_work()))
			work->func(work);
	}
	return 0;
}

void workqueue_init(void)
{
	if (kernel_thread(worker_thread, NULL, "kworker/0:0") < 0)
		panic("could not start the kworker thread");
}
