/* kernel/cputime.c — CPU time as Linux counts it without a fine-grained
 * clock: each timer tick goes whole to whatever it interrupted. */
#include <zpk/kernel_stat.h>
#include <zpk/sched.h>
#include <zpk/time.h>

u64 kcpustat[NR_STATS];
u64 nr_context_switches;
unsigned long total_forks;

/* Linux's account_process_tick: user if the tick came from user mode,
 * idle if the idle task ran, else system (the kernel on p's behalf).
 * Interrupt context. */
void account_process_tick(struct task_struct *p, bool user_tick)
{
	if (user_tick) {
		p->utime += TICK_NSEC;
		kcpustat[CPUTIME_USER] += TICK_NSEC;
	} else if (p->pid == 0) {
		kcpustat[CPUTIME_IDLE] += TICK_NSEC;
	} else {
		p->stime += TICK_NSEC;
		kcpustat[CPUTIME_SYSTEM] += TICK_NSEC;
	}
}
