/* lib/ratelimit.c — Linux's ___ratelimit: lets through at most burst
 * events per interval and counts the rest, so that a program that makes
 * the kernel report the same thing again and again cannot flood the
 * console (under TCG each character of the serial console costs an exit
 * to QEMU). */
#include <zpk/printk.h>
#include <zpk/ratelimit.h>

bool ___ratelimit(struct ratelimit_state *rs, const char *func)
{
	unsigned long flags;
	bool ok;

	if (!rs->interval)
		return true;
	/* Linux's trylock: a second reporter at the same moment is one
	 * more event to refuse, never a wait. */
	local_irq_save(flags);
	if (!spin_trylock(&rs->lock)) {
		local_irq_restore(flags);
		return false;
	}
	if (!rs->begin)
		rs->begin = jiffies;
	if (jiffies - rs->begin >= rs->interval) {
		if (rs->missed)
			pr_warn("%s: %d callbacks suppressed\n", func,
				rs->missed);
		rs->begin = jiffies;
		rs->printed = 0;
		rs->missed = 0;
	}
	ok = rs->burst && rs->burst > rs->printed;
	if (ok)
		rs->printed++;
	else
		rs->missed++;
	spin_unlock(&rs->lock);
	local_irq_restore(flags);
	return ok;
}
