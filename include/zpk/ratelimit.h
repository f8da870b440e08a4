/* zpk/ratelimit.h — Linux's ratelimit: at most burst events per interval,
 * for messages a user program can make the kernel print without end. */
#ifndef ZPK_RATELIMIT_H
#define ZPK_RATELIMIT_H

#include <zpk/spinlock.h>
#include <zpk/time.h>
#include <zpk/types.h>

/* Linux's DEFAULT_RATELIMIT_INTERVAL and _BURST: 10 per 5 seconds. */
#define DEFAULT_RATELIMIT_INTERVAL	(5 * HZ)
#define DEFAULT_RATELIMIT_BURST		10

struct ratelimit_state {
	spinlock_t lock;
	u64 interval;		/* in jiffies */
	int burst;
	int printed;		/* events let through since begin */
	int missed;		/* events refused since begin */
	u64 begin;		/* jiffies at the start of this interval */
};

#define DEFINE_RATELIMIT_STATE(name, interval_init, burst_init)	\
	struct ratelimit_state name = {					\
		.lock = __SPIN_LOCK_UNLOCKED(name.lock),		\
		.interval = interval_init,				\
		.burst = burst_init,					\
	}

/* Returns true when the caller may go ahead. When an interval ends with
 * events refused, prints Linux's "FUNC: N callbacks suppressed" first.
 * Takes rs->lock (any context but NMI: a busy lock refuses). */
bool ___ratelimit(struct ratelimit_state *rs, const char *func);
#define __ratelimit(state) ___ratelimit(state, __func__)

#endif
