/* kernel/loadavg.c — the load averages, as Linux's kernel/sched/loadavg.c
 * computes them: every 5 s the runnable (and uninterruptible) tasks are
 * counted into three exponentially decaying averages, 1, 5 and 15 min. */
#include <zpk/loadavg.h>
#include <zpk/sched.h>
#include <zpk/time.h>
#include <zpk/workqueue.h>

#define LOAD_FREQ	(5 * HZ + 1)	/* ticks between samples */

unsigned long avenrun[3];		/* FSHIFT fixed point */
static unsigned long ticks_left = LOAD_FREQ;

/* One step of an average: load decays by exp toward active (Linux's
 * calc_load, rounding up while it rises). */
unsigned long calc_load(unsigned long load, unsigned long exp,
			unsigned long active)
{
	unsigned long newload = load * exp + active * (FIXED_1 - exp);

	if (active >= load)
		newload += FIXED_1 - 1;
	return newload / FIXED_1;
}

/* Tasks in state, the idle task aside. */
static unsigned int nr_in_state(enum task_state state)
{
	struct task_struct *t;
	unsigned int n = 0;

	list_for_each_entry(t, &task_list, tasks)
		n += t->pid > 0 && t->state == state;
	return n;
}

/* Linux's nr_running: on the run queue or running. */
unsigned int nr_running(void)
{
	return nr_in_state(TASK_RUNNING);
}

/* The sample: the kworker, under the big kernel lock that keeps the task
 * list, counts the tasks (itself aside: it runs only to count). */
static void calc_global_load(struct work_struct *work)
{
	unsigned long active;

	(void)work;
	active = (nr_running() - 1 + nr_in_state(TASK_UNINTERRUPTIBLE)) *
		 FIXED_1;
	avenrun[0] = calc_load(avenrun[0], EXP_1, active);
	avenrun[1] = calc_load(avenrun[1], EXP_5, active);
	avenrun[2] = calc_load(avenrun[2], EXP_15, active);
}
static DECLARE_WORK(calc_load_work, calc_global_load);

/* CPU 0's timer interrupt, every tick: a sample every LOAD_FREQ ticks,
 * handed to the kworker (an interrupt may not walk the task list, which
 * another CPU may be changing). */
void calc_global_load_tick(void)
{
	if (--ticks_left)
		return;
	ticks_left = LOAD_FREQ;
	schedule_work(&calc_load_work);
}

/* Linux's get_avenrun: the averages plus offset, shifted left by shift
 * (sysinfo's 16-bit fraction, /proc/loadavg's rounding). */
void get_avenrun(unsigned long *loads, unsigned long offset, int shift)
{
	for (int i = 0; i < 3; i++)
		loads[i] = (avenrun[i] + offset) << shift;
}
