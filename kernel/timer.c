/* kernel/timer.c — kernel timers (Linux's kernel/time/timer.c, much
 * reduced): a list of pending timer_lists that CPU 0's tick walks, so a
 * timer fires at the first tick after its time (10 ms resolution). The
 * functions run in interrupt context, without timer_lock. */
#include <zpk/atomic.h>
#include <zpk/spinlock.h>
#include <zpk/time.h>
#include <zpk/timer.h>

static DEFINE_SPINLOCK(timer_lock);	/* pending, running; irqsave */
static LIST_HEAD(pending);
static struct timer_list *running;	/* whose function runs now */

void mod_timer(struct timer_list *t, u64 expires)
{
	unsigned long flags;

	spin_lock_irqsave(&timer_lock, flags);
	t->expires = expires;
	if (list_empty(&t->entry))
		list_add_tail(&t->entry, &pending);
	spin_unlock_irqrestore(&timer_lock, flags);
}

bool del_timer_sync(struct timer_list *t)
{
	unsigned long flags;
	bool was;

	spin_lock_irqsave(&timer_lock, flags);
	was = !list_empty(&t->entry);
	list_del_init(&t->entry);
	while (running == t) {		/* only CPU 0 runs them: not us */
		spin_unlock_irqrestore(&timer_lock, flags);
		cpu_relax();
		spin_lock_irqsave(&timer_lock, flags);
	}
	spin_unlock_irqrestore(&timer_lock, flags);
	return was;
}

/* Interrupt context, CPU 0. One expired timer at a time, taken off the
 * list first, so that its function may arm it again. */
void run_timers(void)
{
	u64 now = ktime_get_ns();
	struct timer_list *t;

	spin_lock(&timer_lock);
	for (;;) {
		bool found = false;

		list_for_each_entry(t, &pending, entry)
			if (t->expires <= now) {
				found = true;
				break;
			}
		if (!found)
			break;
		list_del_init(&t->entry);
		running = t;
		spin_unlock(&timer_lock);
		t->function(t);
		spin_lock(&timer_lock);
		running = NULL;
	}
	spin_unlock(&timer_lock);
}
