/* kernel/loadavg.c — the load averages, as Linux's kernel/sched/loadavg.c
 * computes them: every 5 s the runnable (and uninterruptible) tasks are
 * counted into three exponentially decaying averages, 1, 5 and 15 min. */
#include <zpk/ktest.h>
#include <zpk/loadavg.h>
#include <zpk/sched.h>
#include <zpk/time.h>
#include <zpk/workqueue.h>

#define LOAD_FREQ	(5 * HZ + 1)	/* ticks between samples */
#define EXP_1		1884		/* FIXED_1 / exp(5 s / 1 min) */
#define EXP_5		2014		/* ... / 5 min */
#define EXP_15		2037		/* ... / 15 min */

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

/* One task always runnable: the 1-minute average nears 1.00 within a few
 * minutes (60 samples, 5 min: 1 - e^-5 = 0.993), the 15-minute one lags. */
KTEST(loadavg, calc_load_converges)
{
	unsigned long l1 = 0, l15 = 0;

	for (int i = 0; i < 60; i++) {
		l1 = calc_load(l1, EXP_1, FIXED_1);
		l15 = calc_load(l15, EXP_15, FIXED_1);
	}
	KEXPECT_TRUE(l1 >= FIXED_1 * 99 / 100 && l1 <= FIXED_1);
	KEXPECT_TRUE(l15 > FIXED_1 / 4 && l15 < FIXED_1 / 2);
	for (int i = 0; i < 60; i++)
		l1 = calc_load(l1, EXP_1, 0);
	KEXPECT_TRUE(l1 < FIXED_1 / 100);
}
