/* zpk/kernel_stat.h — the system-wide counts /proc/stat prints: CPU time
 * by kind (Linux's kcpustat, one CPU), context switches, forks. */
#ifndef ZPK_KERNEL_STAT_H
#define ZPK_KERNEL_STAT_H

#include <zpk/types.h>

struct task_struct;

/* Linux's enum (/proc/stat prints another order: fs/proc/stat.c). */
enum cpu_usage_stat {
	CPUTIME_USER,
	CPUTIME_NICE,
	CPUTIME_SYSTEM,
	CPUTIME_SOFTIRQ,
	CPUTIME_IRQ,
	CPUTIME_IDLE,
	CPUTIME_IOWAIT,
	CPUTIME_STEAL,
	CPUTIME_GUEST,
	CPUTIME_GUEST_NICE,
	NR_STATS,
};

extern u64 kcpustat[NR_STATS];		/* ns */
extern u64 nr_context_switches;		/* schedule() to another task */
extern unsigned long total_forks;	/* processes made since boot */

/* The timer interrupt: one tick to p's utime (user_tick: it interrupted
 * user mode) or stime, and to the CPU's user, system or idle time. */
void account_process_tick(struct task_struct *p, bool user_tick);

#endif
