/* kernel/sched.c — one run queue for every CPU and schedule(): round-robin,
 * preempted by each CPU's tick on return to user mode; sleeping and waking
 * on wait queues. */
#include <asm/apic.h>
#include <asm/io.h>
#include <asm/processor.h>
#include <asm/signal.h>
#include <zpk/bug.h>
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/itimer.h>
#include <zpk/kallsyms.h>
#include <zpk/kernel_stat.h>
#include <zpk/printk.h>
#include <zpk/sched.h>
#include <zpk/smp_lock.h>
#include <zpk/spinlock.h>
#include <zpk/sprintf.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/time.h>
#include <zpk/uaccess.h>

#define TIMESLICE_TICKS	2		/* ticks a task runs before yielding */

extern char boot_stack_bottom[];

/* Task 0: the boot context, which becomes CPU 0's idle loop. */
struct task_struct init_task = {
	.pid = 0,
	.state = TASK_RUNNING,
	.comm = "swapper",
	.stack = boot_stack_bottom,
	.group_leader = &init_task,
	.signal = &init_signals,
	.sighand = &init_sighand,
	.fs = &init_fs,
	.files = &init_files,
	.cpus_mask = { ~0UL },
	.on_cpu = true,
};
/* The other CPUs' idle tasks (Linux's swapper/N) and their stacks. */
static struct task_struct idle_tasks[NR_CPUS];
static u8 idle_stacks[NR_CPUS][THREAD_SIZE] __aligned(16);
LIST_HEAD(task_list);
struct cpumask cpu_active_mask = { 1 };

/*
 * The run queue: one for all CPUs, so no task waits on a busy CPU while
 * another idles and no balancer is needed (docs/smp.md). rq_lock
 * protects it, the timed sleepers, every task's state, on_cpu and
 * run_list, and each CPU's current_task; interrupts off while it is held,
 * since the tick and wake-ups from interrupt handlers take it. It is held
 * across the switch itself: the CPU that switches away from a task is
 * done with its stack before any other can pick it.
 */
static DEFINE_SPINLOCK(rq_lock);
static LIST_HEAD(run_queue);		/* runnable, not running, FIFO */
static LIST_HEAD(timed_sleepers);	/* asleep with a wake_at_ns */

void sched_init(void)
{
	INIT_LIST_HEAD(&init_task.children);
	INIT_LIST_HEAD(&init_task.sibling);
	INIT_LIST_HEAD(&init_task.run_list);
	INIT_LIST_HEAD(&init_task.timeout_list);
	list_add_tail(&init_task.thread_node, &init_signals.thread_head);
	list_add_tail(&init_task.tasks, &task_list);
	fpu_save_to(&init_task);
}

struct task_struct *idle_task_init(int cpu)
{
	struct task_struct *idle = &idle_tasks[cpu];

	snprintf(idle->comm, sizeof(idle->comm), "swapper/%d", cpu);
	idle->state = TASK_RUNNING;
	idle->stack = idle_stacks[cpu];
	idle->group_leader = idle;	/* pid 0's signals, off its list */
	idle->signal = &init_signals;
	idle->sighand = &init_sighand;
	idle->fs = &init_fs;
	idle->files = &init_files;
	idle->cpus_mask.bits = 1UL << cpu;
	idle->on_cpu = true;
	idle->cpu = cpu;
	INIT_LIST_HEAD(&idle->children);
	INIT_LIST_HEAD(&idle->sibling);
	INIT_LIST_HEAD(&idle->run_list);
	INIT_LIST_HEAD(&idle->timeout_list);
	INIT_LIST_HEAD(&idle->thread_node);
	return idle;
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

/* The first queued task that may run on cpu, or NULL. rq_lock held. */
static struct task_struct *first_runnable(int cpu)
{
	struct task_struct *t;

	list_for_each_entry(t, &run_queue, run_list)
		if (cpumask_test_cpu(cpu, &t->cpus_mask))
			return t;
	return NULL;
}

/* Wakes an idle CPU that may run t, if there is one: a reschedule IPI,
 * or need_resched when it is this CPU (in an interrupt from idle). */
static void kick_idle_cpu(struct task_struct *t)
{
	int cpu;

	for_each_cpu(cpu, &cpu_active_mask) {
		if (!cpumask_test_cpu(cpu, &t->cpus_mask) ||
		    per_cpu(current_task, cpu) != per_cpu(idle, cpu))
			continue;
		if (cpu == smp_processor_id())
			per_cpu(idle, cpu)->need_resched = true;
		else
			apic_send_IPI(cpu, RESCHEDULE_VECTOR);
		return;
	}
}

/* rq_lock held: the state becomes RUNNING; queued unless a CPU runs it
 * (it has not gone to sleep yet: its schedule() will see RUNNING). */
static void try_to_wake_up(struct task_struct *t)
{
	if (t->state == TASK_INTERRUPTIBLE || t->state == TASK_UNINTERRUPTIBLE)
		t->state = TASK_RUNNING;
	list_del_init(&t->timeout_list);
	if (t->state != TASK_RUNNING || is_idle_task(t) || t->on_cpu ||
	    !list_empty(&t->run_list))
		return;
	list_add_tail(&t->run_list, &run_queue);
	kick_idle_cpu(t);
}

/* t runs on another CPU: a reschedule IPI sends it through
 * prepare_exit_to_usermode, where it sees what changed for it (a signal)
 * now rather than at its next tick (Linux's kick_process). */
void kick_process(struct task_struct *t)
{
	unsigned long flags;

	spin_lock_irqsave(&rq_lock, flags);
	if (t->on_cpu && t->cpu != smp_processor_id())
		apic_send_IPI(t->cpu, RESCHEDULE_VECTOR);
	spin_unlock_irqrestore(&rq_lock, flags);
}

void wake_up_process(struct task_struct *t)
{
	unsigned long flags;

	spin_lock_irqsave(&rq_lock, flags);
	try_to_wake_up(t);
	spin_unlock_irqrestore(&rq_lock, flags);
}

/* The next task for cpu: the first in the queue it may run, else its
 * idle task. rq_lock held. */
static struct task_struct *pick_next_task(int cpu)
{
	struct task_struct *next = first_runnable(cpu);

	if (!next)
		return per_cpu(idle, cpu);
	list_del_init(&next->run_list);
	return next;
}

/* Linux's "BUG: scheduling while atomic": a spinlock is held here. */
static void schedule_bug(struct task_struct *prev)
{
	printk(KERN_EMERG "BUG: scheduling while atomic: %s/%d/%#010x\n",
	       prev->comm, prev->pid, spin_locks_held());
	dump_stack();
}

enum system_states system_state;

void __might_sleep(const char *file, int line)
{
	if (system_state == SYSTEM_BOOTING ||
	    (!spin_locks_held() && !irqs_disabled()))
		return;
	printk(KERN_EMERG "BUG: sleeping function called from invalid "
	       "context at %s:%d\n", file, line);
	printk(KERN_EMERG "in_atomic(): %d, irqs_disabled(): %d, pid: %d, "
	       "name: %s\n", spin_locks_held() > 0, irqs_disabled(),
	       current->pid, current->comm);
	dump_stack();
}

/*
 * The end of a switch, on the new task's stack: the task this CPU left is
 * off it now (its stack is free to go: a zombie's parent may be waiting
 * for that). One that released itself (PF_DEAD, an exited thread) is
 * this CPU's to free, once rq_lock is let go. rq_lock held.
 */
static void finish_switch(void)
{
	struct task_struct *prev = this_cpu_read(prev_task);

	if (prev->flags & PF_DEAD)
		this_cpu_write(dead_task, prev);
	__atomic_store_n(&prev->on_cpu, false, __ATOMIC_RELEASE);
}

/* The stack and struct of the task finish_switch found dead, now that no
 * CPU runs on them; the big kernel lock, as put_task_struct drops the
 * signal_struct. */
static void free_dead_task(void)
{
	struct task_struct *t = this_cpu_read(dead_task);

	if (!t)
		return;
	this_cpu_write(dead_task, NULL);
	lock_kernel();
	put_task_stack(t);
	put_task_struct(t);
	unlock_kernel();
}

void finish_task_switch(void)
{
	finish_switch();
	spin_unlock_irq(&rq_lock);
	free_dead_task();
}

/*
 * Gives this CPU to the next runnable task (maybe the same one). A task
 * going to sleep has set its state first; if that was not RUNNING it
 * leaves the queue (with a wake_at_ns, for the tick's list). Process
 * context, interrupts on, no spinlock held; the big kernel lock is let go
 * meanwhile.
 */
void schedule(void)
{
	struct task_struct *prev = current, *next;
	int cpu = smp_processor_id();
	unsigned long flags;

	if (unlikely(spin_locks_held()))
		schedule_bug(prev);
	release_kernel_lock(prev);
	spin_lock_irqsave(&rq_lock, flags);
	prev->need_resched = false;
	if (prev->state == TASK_RUNNING) {
		if (!is_idle_task(prev) && list_empty(&prev->run_list))
			list_add_tail(&prev->run_list, &run_queue);
	} else if (prev->wake_at_ns) {
		list_add_tail(&prev->timeout_list, &timed_sleepers);
	}
	next = pick_next_task(cpu);
	if (next != prev) {
		/* prev waits in the queue: an idle CPU may take it now. */
		if (!list_empty(&prev->run_list))
			kick_idle_cpu(prev);
		this_cpu_ptr()->nr_switches++;
		next->ticks = 0;
		next->on_cpu = true;
		next->cpu = cpu;
		this_cpu_write(prev_task, prev);
		this_cpu_write(current_task, next);
		switch_to(prev, next);
		finish_switch();	/* prev runs again, maybe elsewhere */
	}
	spin_unlock_irqrestore(&rq_lock, flags);
	reacquire_kernel_lock(prev);
	free_dead_task();
}

/* Sleepers whose time has come (nanosleep, futex timeouts). rq_lock
 * held. */
static void wake_timed_sleepers(void)
{
	u64 now = ktime_get_ns();
	struct task_struct *t, *n;

	list_for_each_entry_safe(t, n, &timed_sleepers, timeout_list)
		if (t->wake_at_ns <= now)
			try_to_wake_up(t);
}

/* Interrupt context. One CPU wakes the timed sleepers; each CPU asks for
 * a switch when its task used its slice and another may run here. */
static void scheduler_tick(void)
{
	struct task_struct *curr = current;
	int cpu = smp_processor_id();

	spin_lock(&rq_lock);
	if (cpu == 0)
		wake_timed_sleepers();
	if (is_idle_task(curr) ? first_runnable(cpu) != NULL :
	    ++curr->ticks >= TIMESLICE_TICKS && first_runnable(cpu))
		curr->need_resched = true;
	spin_unlock(&rq_lock);
}

void update_process_times(bool user)
{
	account_process_tick(current, user);
	itimer_tick(current, user);
	scheduler_tick();
}

void wait_task_inactive(struct task_struct *p)
{
	while (__atomic_load_n(&p->on_cpu, __ATOMIC_ACQUIRE))
		cpu_relax();
}

void scheduler_ipi(void)
{
	current->need_resched = true;
}

/* Something queued that this CPU may run? Interrupts off. */
static bool cpu_has_work(int cpu)
{
	bool work;

	spin_lock(&rq_lock);
	work = first_runnable(cpu) != NULL;
	spin_unlock(&rq_lock);
	return work;
}

/*
 * The idle loop: runs whatever is runnable here, halts when nothing is.
 * The look at the queue and the hlt happen with interrupts off until
 * "sti; hlt", which takes a pending interrupt only once halted: a wake-up
 * IPI after the look is not lost.
 */
void __noreturn cpu_idle(void)
{
	int cpu = smp_processor_id();

	for (;;) {
		local_irq_disable();
		if (!current->need_resched && !cpu_has_work(cpu)) {
			asm volatile("sti; hlt" : : : "memory");
			continue;
		}
		local_irq_enable();
		schedule();
	}
}

/* ---- wait queues ---------------------------------------------------- */

/* Any context: wq's lock, then rq_lock in wake_up_process. */
void wake_up(struct wait_queue_head *wq)
{
	struct wait_queue_entry *e;
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	list_for_each_entry(e, &wq->head, entry) {
		if (e->func)
			e->func(e, 0);
		else
			wake_up_process(e->task);
	}
	spin_unlock_irqrestore(&wq->lock, flags);
}

void wake_up_pollfree(struct wait_queue_head *wq)
{
	struct wait_queue_entry *e, *n;
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	list_for_each_entry_safe(e, n, &wq->head, entry) {
		BUG_ON(!e->func);
		e->func(e, POLLFREE);
	}
	spin_unlock_irqrestore(&wq->lock, flags);
}

void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *e,
		     int state)
{
	unsigned long flags;

	BUG_ON(is_idle_task(current));	/* idle must never sleep */
	spin_lock_irqsave(&wq->lock, flags);
	/* Not queued yet: as declared (next NULL), or after finish_wait. */
	if (!e->entry.next || list_empty(&e->entry))
		list_add_tail(&e->entry, &wq->head);
	set_current_state(state);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *e)
{
	unsigned long flags;

	__set_current_state(TASK_RUNNING);
	spin_lock_irqsave(&wq->lock, flags);
	if (e->entry.next && !list_empty(&e->entry))
		list_del_init(&e->entry);
	spin_unlock_irqrestore(&wq->lock, flags);
}

int sleep_on(struct wait_queue_head *wq)
{
	struct wait_queue_entry e = { .task = current };

	if (signal_pending(current))
		return -ERESTARTSYS;
	BUG_ON(is_idle_task(current));	/* idle must never sleep */
	prepare_to_wait(wq, &e, TASK_INTERRUPTIBLE);
	schedule();
	finish_wait(wq, &e);
	return signal_pending(current) ? -ERESTARTSYS : 0;
}

static long sys_sched_yield(void)
{
	schedule();
	return 0;
}
SYSCALL(__NR_sched_yield, sys_sched_yield);

/* ---- CPUs ------------------------------------------------------------- */

/* The task a pid names for the sched_* calls: 0 is the caller. */
static struct task_struct *find_process_by_pid(int pid)
{
	return pid ? find_task_by_pid(pid) : current;
}

/*
 * Where pid may run, among the CPUs online, as Linux: len must hold
 * nr_cpu_ids bits and be a multiple of a long; the mask is one long
 * (Linux's cpumask_size() for up to 64 CPUs), and its size is returned.
 */
static long sys_sched_getaffinity(int pid, unsigned int len,
				  unsigned long __user *user_mask)
{
	struct task_struct *p;
	unsigned long mask;

	if (len * 8 < (unsigned int)nr_cpu_ids ||
	    (len & (sizeof(unsigned long) - 1)))
		return -EINVAL;
	p = find_process_by_pid(pid);
	if (!p)
		return -ESRCH;
	mask = p->cpus_mask.bits & cpu_online_mask.bits;
	if (copy_to_user(user_mask, &mask, sizeof(mask)))
		return -EFAULT;
	return sizeof(mask);
}
SYSCALL(__NR_sched_getaffinity, sys_sched_getaffinity);

/* If a CPU outside the mask runs p, it is asked to switch (a reschedule
 * IPI); p goes back to the queue there and a CPU of the mask takes it. */
void set_cpus_allowed_ptr(struct task_struct *p, const struct cpumask *m)
{
	unsigned long flags;

	spin_lock_irqsave(&rq_lock, flags);
	p->cpus_mask = *m;
	if (p->on_cpu && !cpumask_test_cpu(p->cpu, m)) {
		p->need_resched = true;
		if (p->cpu != smp_processor_id())
			apic_send_IPI(p->cpu, RESCHEDULE_VECTOR);
	} else if (!list_empty(&p->run_list)) {
		kick_idle_cpu(p);
	}
	spin_unlock_irqrestore(&rq_lock, flags);
}

/*
 * As Linux: the user's mask (len bytes; bits beyond it 0, bytes beyond
 * one long ignored) limited to the CPUs there are; -EINVAL if that leaves
 * no CPU the scheduler runs on, -ESRCH, -EFAULT.
 */
static long sys_sched_setaffinity(int pid, unsigned int len,
				  const unsigned long __user *user_mask)
{
	struct cpumask mask = { 0 };
	struct task_struct *p;

	if (copy_from_user(&mask.bits, user_mask,
			   len < sizeof(mask.bits) ? len : sizeof(mask.bits)))
		return -EFAULT;
	p = find_process_by_pid(pid);
	if (!p)
		return -ESRCH;
	mask.bits &= cpu_possible_mask.bits;
	if (!(mask.bits & cpu_active_mask.bits))
		return -EINVAL;
	set_cpus_allowed_ptr(p, &mask);
	return 0;
}
SYSCALL(__NR_sched_setaffinity, sys_sched_setaffinity);

/* The CPU the caller runs on, and its NUMA node (one node: 0). Either
 * pointer may be NULL; the third argument is unused since Linux 2.6.24. */
static long sys_getcpu(unsigned int __user *cpup, unsigned int __user *nodep,
		       void __user *unused)
{
	unsigned int cpu = smp_processor_id(), node = 0;

	(void)unused;
	if (cpup && put_user(cpu, cpup))
		return -EFAULT;
	if (nodep && put_user(node, nodep))
		return -EFAULT;
	return 0;
}
SYSCALL(__NR_getcpu, sys_getcpu);

/*
 * do_signal's work: a signal to act on, or a system call's result to
 * turn into its restart, or sigsuspend's mask to put back. Any other
 * return to user mode (a fault's, the tick's) goes without the big
 * kernel lock.
 */
static bool signal_work(const struct pt_regs *regs)
{
	long ret = (long)regs->rax;

	if (signal_pending(current) || current->restore_sigmask ||
	    current->itimer_sigs)
		return true;
	if (current->in_syscall && ret <= -ERESTARTSYS &&
	    ret >= -ERESTART_RESTARTBLOCK)
		return true;
	current->in_syscall = false;	/* as syscall_restart would */
	return false;
}

/* Preemption and signal delivery until neither is left (Linux's
 * exit_to_user_mode_loop): the work with interrupts on, signals under the
 * big kernel lock. */
static __noinline void exit_to_user_mode_loop(struct pt_regs *regs)
{
	bool again;

	for (;;) {
		if (current->need_resched) {
			local_irq_enable();
			schedule();
			local_irq_disable();
			continue;
		}
		if (!signal_work(regs))
			return;
		local_irq_enable();
		lock_kernel();
		again = do_signal(regs);
		unlock_kernel();
		local_irq_disable();
		if (!again)
			return;
	}
}

/*
 * Every return to user mode comes here (entry.asm's trap_return), with
 * interrupts off: a wake-up or reschedule IPI after the last look is then
 * taken in user mode and comes back here. Most have nothing to do.
 */
void prepare_exit_to_usermode(struct pt_regs *regs)
{
	if (current->need_resched || signal_work(regs))
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
