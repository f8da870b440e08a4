/* zpk/kernel_stat.h — the counts /proc/stat prints: CPU time by kind
 * (each CPU's, Linux's kcpustat_cpu), context switches, forks. */
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

extern unsigned long total_forks;	/* tasks made since boot */

/* A CPU's timer interrupt: one tick to p's utime (user_tick: it
 * interrupted user mode) or stime, and to this CPU's user, system or
 * idle time. */
void account_process_tick(struct task_struct *p, bool user_tick);
/* The user and system ns of p's whole process: its threads' and those of
 * threads already released (Linux's thread_group_cputime). */
void thread_group_cputime(struct task_struct *p, u64 *utime, u64 *stime);
/* The ns of one kind every online CPU spent, added up. */
u64 kcpustat_sum(int stat);
/* schedule()'s switches to another task, every CPU's. */
u64 nr_context_switches(void);

#endif
