/* zpk/timer.h — kernel timers (Linux's timer_list, to the tick): a
 * function called from CPU 0's timer interrupt once its time has come. */
#ifndef ZPK_TIMER_H
#define ZPK_TIMER_H

#include <zpk/list.h>
#include <zpk/types.h>

struct timer_list {
	struct list_head entry;		/* on the pending list, or empty */
	u64 expires;			/* ktime_get_ns() */
	void (*function)(struct timer_list *t);
};

static inline void timer_setup(struct timer_list *t,
			       void (*fn)(struct timer_list *t))
{
	INIT_LIST_HEAD(&t->entry);
	t->expires = 0;
	t->function = fn;
}

/* (Re)arms t for expires (monotonic ns): t->function runs in interrupt
 * context at the first tick from then on. Any context. */
void mod_timer(struct timer_list *t, u64 expires);
/* Disarms t and waits until its function is not running on another CPU;
 * true if it was pending. Process context. */
bool del_timer_sync(struct timer_list *t);
/* CPU 0's tick: runs the timers whose time has come. */
void run_timers(void);

#endif
