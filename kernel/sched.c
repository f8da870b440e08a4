/* kernel/sched.c — the run queue and schedule(): round-robin, preempted by
 * the timer on return to user mode; sleeping and waking on wait queues. */
#include <asm/io.h>
#include <asm/processor.h>
#include <asm/signal.h>
#include <zpk/bug.h>
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/kernel_stat.h>
#include <zpk/printk.h>
#include <zpk/sched.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/time.h>
#include <zpk/uaccess.h>

#define TIMESLICE_TICKS	2		/* ticks a task runs before yielding */

extern char boot_stack_bottom[];

/* Task 0: the boot context, which becomes the idle loop. */
static struct task_struct init_task = {
	.pid = 0,
	.state = TASK_RUNNING,
	.comm = "swapper",
	.stack = boot_stack_bottom,
	.group_leader = &init_task,
	.signal = &init_signals,
	.sighand = &init_sighand,
	.fs = &init_fs,
	.files = &init_files,
};
struct task_struct *current_task = &init_task;
LIST_HEAD(task_list);
static LIST_HEAD(run_queue);

void sched_init(void)
{
	INIT_LIST_HEAD(&init_task.children);
	INIT_LIST_HEAD(&init_task.sibling);
	INIT_LIST_HEAD(&init_task.run_list);
	list_add_tail(&init_task.thread_node, &init_signals.thread_head);
	list_add_tail(&init_task.tasks, &task_list);
	fpu_save_to(&init_task);
}

struct files_struct *current_files(void)
{
	return current->files;
}

struct task_struct *find_task_by_pid(int pid)
{
	struct task_struct *t;

	list_for_each_entry(t, &task_list, tasks)
		if (t->pid == pid && t->state != EXIT_DEAD)
			return t;
	return NULL;
}

void wake_up_process(struct task_struct *t)
{
	if (t->state == TASK_INTERRUPTIBLE || t->state == TASK_UNINTERRUPTIBLE)
		t->state = TASK_RUNNING;
	if (t->state != TASK_RUNNING || t == &init_task ||
	    !list_empty(&t->run_list))
		return;
	list_add_tail(&t->run_list, &run_queue);
	if (current == &init_task)
		current->need_resched = true;
}

/* The next task to run: the run queue's head, else idle. */
static struct task_struct *pick_next_task(void)
{
	struct task_struct *next;

	if (list_empty(&run_queue))
		return &init_task;
	next = list_first_entry(&run_queue, struct task_struct, run_list);
	list_del_init(&next->run_list);
	return next;
}

/* A task that released itself (an exited thread) and switched away
 * for the last time: its stack and struct go once we are off it. */
static struct task_struct *task_dead;

void finish_task_switch(void)
{
	struct task_struct *t = task_dead;

	if (!t || t == current)
		return;
	task_dead = NULL;
	put_task_stack(t);
	put_task_struct(t);
}

/* Interrupts are off in the kernel except in the idle loop's hlt, so
 * nothing here can be interrupted. */
void schedule(void)
{
	struct task_struct *prev = current, *next;

	prev->need_resched = false;
	if (prev->state == TASK_RUNNING && prev != &init_task &&
	    list_empty(&prev->run_list))
		list_add_tail(&prev->run_list, &run_queue);
	next = pick_next_task();
	if (next == prev)
		return;
	next->ticks = 0;
	nr_context_switches++;
	current_task = next;
	finish_task_switch();
	if (prev->state == EXIT_DEAD)
		task_dead = prev;
	switch_to(prev, next);
	finish_task_switch();
}

/* Sleepers whose nanosleep time has come. */
static void wake_sleepers(void)
{
	u64 now = ktime_get_ns();
	struct task_struct *t;

	list_for_each_entry(t, &task_list, tasks)
		if (t->wake_at_ns && t->wake_at_ns <= now &&
		    t->state == TASK_INTERRUPTIBLE)
			wake_up_process(t);
}

void scheduler_tick(void)
{
	wake_sleepers();
	if (current == &init_task) {
		if (!list_empty(&run_queue))
			current->need_resched = true;
		return;
	}
	if (++current->ticks >= TIMESLICE_TICKS && !list_empty(&run_queue))
		current->need_resched = true;
}

void __noreturn cpu_idle(void)
{
	for (;;) {
		while (list_empty(&run_queue))
			asm volatile("sti; hlt; cli");
		schedule();
	}
}

/* ---- wait queues ---------------------------------------------------- */

void wake_up(struct wait_queue_head *wq)
{
	struct wait_queue_entry *e;

	list_for_each_entry(e, &wq->head, entry)
		wake_up_process(e->task);
}

int sleep_on(struct wait_queue_head *wq)
{
	struct wait_queue_entry e = { .task = current };

	if (signal_pending(current))
		return -ERESTARTSYS;
	BUG_ON(current == &init_task);	/* idle must never sleep */
	list_add_tail(&e.entry, &wq->head);
	current->state = TASK_INTERRUPTIBLE;
	schedule();
	list_del(&e.entry);
	return signal_pending(current) ? -ERESTARTSYS : 0;
}

static long sys_sched_yield(void)
{
	schedule();
	return 0;
}
SYSCALL(__NR_sched_yield, sys_sched_yield);

/* One CPU: every task's affinity is CPU 0, in a mask of one long
 * (Linux's cpumask_size() for up to 64 CPUs). */
static long sys_sched_getaffinity(int pid, unsigned int len,
				  unsigned long __user *mask)
{
	unsigned long m = 1;

	if (len < sizeof(m) || (len & (sizeof(m) - 1)))
		return -EINVAL;
	if (pid && !find_task_by_pid(pid))
		return -ESRCH;
	return copy_to_user(mask, &m, sizeof(m)) ? -EFAULT : (long)sizeof(m);
}
SYSCALL(__NR_sched_getaffinity, sys_sched_getaffinity);

/* A mask without CPU 0 leaves a task nowhere to run: -EINVAL. */
static long sys_sched_setaffinity(int pid, unsigned int len,
				  const unsigned long __user *mask)
{
	unsigned long m = 0;

	if (pid && !find_task_by_pid(pid))
		return -ESRCH;
	if (len && copy_from_user(&m, mask, min(len, (unsigned int)sizeof(m))))
		return -EFAULT;
	return m & 1 ? 0 : -EINVAL;
}
SYSCALL(__NR_sched_setaffinity, sys_sched_setaffinity);

/* Preemption and signal delivery until neither is left (Linux's
 * exit_to_user_mode_loop). */
static __noinline void exit_to_user_mode_loop(struct pt_regs *regs)
{
	for (;;) {
		if (current->need_resched) {
			schedule();
			continue;
		}
		if (do_signal(regs))
			continue;
		return;
	}
}

/* Every return to user mode comes here (entry.asm's trap_return); most
 * have nothing to do. */
void prepare_exit_to_usermode(struct pt_regs *regs)
{
	if (current->need_resched || signal_pending(current))
		exit_to_user_mode_loop(regs);
}

/* ---- sleeping for a while ------------------------------------------- */


/*
 * Sleeps until ktime_get_ns() reaches wake_at; the timer tick wakes us
 * (so the resolution is one tick). 0, or -EINTR with the time left in
 * *left_ns when a signal comes first.
 */
static int sleep_until(u64 wake_at, u64 *left_ns)
{
	u64 now;

	while ((now = ktime_get_ns()) < wake_at) {
		if (signal_pending(current)) {
			*left_ns = wake_at - now;
			return -EINTR;
		}
		current->wake_at_ns = wake_at;
		current->state = TASK_INTERRUPTIBLE;
		schedule();
		current->wake_at_ns = 0;
	}
	return 0;
}

long timespec_from_user(const struct __kernel_timespec __user *u, u64 *ns)
{
	struct __kernel_timespec ts;

	if (copy_from_user(&ts, u, sizeof(ts)))
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || (u64)ts.tv_nsec >= NSEC_PER_SEC)
		return -EINVAL;
	if (ts.tv_sec > (s64)(~0ULL / 2 / NSEC_PER_SEC))
		ts.tv_sec = ~0ULL / 2 / NSEC_PER_SEC;	/* "forever" */
	*ns = (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
	return 0;
}

static long nanosleep_restart(struct restart_block *rb);

/* Sleeps until wake_at. A signal ends it with the time left in *rem and
 * -ERESTART_RESTARTBLOCK: EINTR if a handler runs, else restart_syscall
 * sleeps on to the same wake_at (Linux's hrtimer_nanosleep). */
static long sleep_and_report(u64 wake_at, struct __kernel_timespec __user *rem)
{
	u64 left = 0;
	struct __kernel_timespec ts;

	if (!sleep_until(wake_at, &left))
		return 0;
	ts.tv_sec = (s64)(left / NSEC_PER_SEC);
	ts.tv_nsec = (long)(left % NSEC_PER_SEC);
	if (rem && copy_to_user(rem, &ts, sizeof(ts)))
		return -EFAULT;
	current->restart_block = (struct restart_block){
		.fn = nanosleep_restart, .deadline_ns = wake_at, .uaddr = rem };
	return -ERESTART_RESTARTBLOCK;
}

static long nanosleep_restart(struct restart_block *rb)
{
	return sleep_and_report(rb->deadline_ns, rb->uaddr);
}

static long sys_nanosleep(const struct __kernel_timespec __user *req,
			  struct __kernel_timespec __user *rem)
{
	u64 ns;
	long err = timespec_from_user(req, &ns);

	if (err)
		return err;
	return sleep_and_report(ktime_get_ns() + ns, rem);
}
SYSCALL(__NR_nanosleep, sys_nanosleep);

#define TIMER_ABSTIME		1

/* MONOTONIC and BOOTTIME are ktime; an absolute REALTIME sleep is
 * converted with the current offset between the two clocks. */
static long sys_clock_nanosleep(int clock, int flags,
				const struct __kernel_timespec __user *req,
				struct __kernel_timespec __user *rem)
{
	u64 ns, now = ktime_get_ns();
	long err;

	if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC &&
	    clock != CLOCK_BOOTTIME)
		return -EINVAL;
	err = timespec_from_user(req, &ns);
	if (err)
		return err;
	if (!(flags & TIMER_ABSTIME))
		return sleep_and_report(now + ns, rem);
	if (clock == CLOCK_REALTIME)
		ns = ns > ktime_get_real_ns() - now ? ns - (ktime_get_real_ns() - now)
						   : 0;
	return sleep_and_report(ns, NULL);
}
SYSCALL(__NR_clock_nanosleep, sys_clock_nanosleep);
