/* kernel/cputime.c — CPU time as Linux counts it without a fine-grained
 * clock: each timer tick goes whole to whatever it interrupted, in the
 * CPU's own counts (struct pcpu), added up when /proc reads them. */
#include <asm/percpu.h>
#include <zpk/atomic.h>
#include <zpk/cpumask.h>
#include <zpk/kernel_stat.h>
#include <zpk/sched.h>
#include <zpk/time.h>

/* Linux's account_process_tick: user if the tick came from user mode,
 * idle if the idle task ran, else system (the kernel on p's behalf).
 * Interrupt context, on the CPU p runs on: only it writes these. */
void account_process_tick(struct task_struct *p, bool user_tick)
{
	u64 *cpustat = this_cpu_ptr()->cpustat;

	if (user_tick) {
		p->utime += TICK_NSEC;
		cpustat[CPUTIME_USER] += TICK_NSEC;
	} else if (is_idle_task(p)) {
		cpustat[CPUTIME_IDLE] += TICK_NSEC;
	} else {
		p->stime += TICK_NSEC;
		cpustat[CPUTIME_SYSTEM] += TICK_NSEC;
	}
}

void thread_group_cputime(struct task_struct *p, u64 *utime, u64 *stime)
{
	struct task_struct *t;

	*utime = p->signal->utime;
	*stime = p->signal->stime;
	for_each_thread(p, t) {
		*utime += t->utime;
		*stime += t->stime;
	}
}

/* The sum over the online CPUs of a u64 field of their struct pcpu. */
#define sum_online_cpus(field) ({				\
	u64 __sum = 0;						\
	int __cpu;						\
								\
	for_each_online_cpu(__cpu)				\
		__sum += READ_ONCE(per_cpu(field, __cpu));	\
	__sum;							\
})

u64 kcpustat_sum(int stat)
{
	return sum_online_cpus(cpustat[stat]);
}

u64 nr_context_switches(void)
{
	return sum_online_cpus(nr_switches);
}
