/* zpk/workqueue.h — deferred work (Linux's workqueue, with one worker):
 * an interrupt handler queues what it may not do itself; the kworker
 * thread runs it soon after, in process context. */
#ifndef ZPK_WORKQUEUE_H
#define ZPK_WORKQUEUE_H

#include <zpk/list.h>

struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);

struct work_struct {
	struct list_head entry;		/* on the queue; empty if not */
	work_func_t func;
};

#define __WORK_INITIALIZER(n, f) { .entry = LIST_HEAD_INIT((n).entry),	\
				   .func = (f) }
#define DECLARE_WORK(n, f)	struct work_struct n = __WORK_INITIALIZER(n, f)

/* Queues work unless it is queued already (true if queued now); the
 * kworker runs work->func(work) under the big kernel lock. Any context,
 * interrupt handlers included. */
bool schedule_work(struct work_struct *work);
/* Boot: starts the kworker thread (after init, which must be PID 1). */
void workqueue_init(void);

#endif
