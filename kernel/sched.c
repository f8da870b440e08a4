/* kernel/sched.c — a run queue per CPU and schedule(): round-robin,
 * preempted by each CPU's tick on return to user mode, idle CPUs taking
 * tasks from the others' queues; waking, affinity, timed sleeps. */
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
 * A run queue per CPU (Linux's struct rq): the tasks waiting to run
 * there, FIFO, and the sleepers with a timeout that slept there. Its lock
 * protects them, and the state, on_rq, run_list and timeout_list of the
 * tasks whose task_rq() it is (queued or running there, or asleep after
 * running there last), and its CPU's rq->curr. Interrupts are off while
 * it is held, since the tick and interrupt handlers' wake-ups take it;
 * it is held across the switch itself, so a task in a queue is on no
 * CPU's stack. A CPU's switches and ticks write only its own rq, on lines
 * of its own. No CPU ever holds two rq locks: a task moves to another
 * CPU's queue in two steps (move_task), on no queue in between.
 */
struct rq {
	spinlock_t lock;
	unsigned int nr_running;	/* on_rq here: queued, and curr */
	unsigned int nr_queued;		/* in queue (read unlocked: a hint) */
	unsigned int nr_migratory;	/* of those, allowed on another CPU */
	struct list_head queue;		/* runnable, not running, FIFO */
	struct list_head timeouts;	/* asleep with a wake_at_ns */
	struct task_struct *curr, *idle;
	int cpu;
} __aligned(64);

static struct rq runqueues[NR_CPUS];

#define cpu_rq(cpu)	(&runqueues[(cpu)])
#define this_rq()	cpu_rq(smp_processor_id())

void sched_init(void)
{
	int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		struct rq *rq = cpu_rq(cpu);

		spin_lock_init(&rq->lock);
		INIT_LIST_HEAD(&rq->queue);
		INIT_LIST_HEAD(&rq->timeouts);
		rq->cpu = cpu;
	}
	runqueues[0].curr = runqueues[0].idle = &init_task;
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
	cpu_rq(cpu)->curr = cpu_rq(cpu)->idle = idle;
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

/*
 * Locks the rq p belongs to (Linux's task_rq_lock): the CPU it runs on,
 * is queued on, or slept on last. p->cpu changes only under that lock,
 * and a task in transit (MIGRATING) belongs to no rq: wait until it
 * arrives. No rq lock held on entry; returns with interrupts off.
 */
static struct rq *task_rq_lock(struct task_struct *p, unsigned long *flags)
{
	struct rq *rq;

	for (;;) {
		local_irq_save(*flags);
		rq = cpu_rq(READ_ONCE(p->cpu));
		spin_lock(&rq->lock);
		if (rq->cpu == READ_ONCE(p->cpu) &&
		    READ_ONCE(p->on_rq) != TASK_ON_RQ_MIGRATING)
			return rq;
		spin_unlock(&rq->lock);
		local_irq_restore(*flags);
		while (READ_ONCE(p->on_rq) == TASK_ON_RQ_MIGRATING)
			cpu_relax();
	}
}

static void task_rq_unlock(struct rq *rq, unsigned long flags)
{
	spin_unlock_irqrestore(&rq->lock, flags);
}

/* p may run on other CPUs than one: a task other CPUs may steal. Its
 * mask does not change while it is queued (set_cpus_allowed_ptr takes it
 * off first), so the count below stays exact. */
static int migratory(struct task_struct *p)
{
	return cpumask_weight(&p->cpus_mask) > 1;
}

/* rq's lock held: p joins the tail of its queue (Linux's enqueue_task),
 * or leaves it. Other CPUs look at the counts unlocked (steal_task): a
 * queue of pinned tasks is not worth their taking its lock. */
static void enqueue_task(struct rq *rq, struct task_struct *p)
{
	list_add_tail(&p->run_list, &rq->queue);
	WRITE_ONCE(rq->nr_queued, rq->nr_queued + 1);
	WRITE_ONCE(rq->nr_migratory, rq->nr_migratory + migratory(p));
}

static void dequeue_task(struct rq *rq, struct task_struct *p)
{
	list_del_init(&p->run_list);
	WRITE_ONCE(rq->nr_queued, rq->nr_queued - 1);
	WRITE_ONCE(rq->nr_migratory, rq->nr_migratory - migratory(p));
}

/* rq's lock held: p becomes runnable on rq, queued (activate_task), or
 * stops being so (deactivate_task: asleep, or leaving for another CPU). */
static void activate_task(struct rq *rq, struct task_struct *p)
{
	enqueue_task(rq, p);
	rq->nr_running++;
	p->on_rq = TASK_ON_RQ_QUEUED;
}

static void deactivate_task(struct rq *rq, struct task_struct *p, int on_rq)
{
	rq->nr_running--;
	p->on_rq = on_rq;
}

/* Linux's idle_cpu: cpu runs its idle task and nothing waits there. A
 * look without the lock. */
static bool idle_cpu(int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	return READ_ONCE(rq->curr) == rq->idle && !READ_ONCE(rq->nr_running);
}

/* p may run on cpu now: in its mask, and the scheduler's. */
static bool cpu_allowed(struct task_struct *p, int cpu)
{
	return cpumask_test_cpu(cpu, &p->cpus_mask) &&
	       cpumask_test_cpu(cpu, &cpu_active_mask);
}

/*
 * Where a task that becomes runnable goes (Linux's select_task_rq, much
 * simplified): an idle CPU it may run on, this one first (an interrupt
 * that came in idle: no IPI, and no halted virtual CPU for the host to
 * wake), then the one it last ran on, then any; else its last CPU, else
 * the first it may run on. p's rq lock held.
 */
static int select_task_rq(struct task_struct *p)
{
	int cpu = smp_processor_id();

	if (cpu_allowed(p, cpu) && idle_cpu(cpu))
		return cpu;
	if (cpu_allowed(p, p->cpu) && idle_cpu(p->cpu))
		return p->cpu;
	for_each_cpu(cpu, &cpu_active_mask)
		if (cpumask_test_cpu(cpu, &p->cpus_mask) && idle_cpu(cpu))
			return cpu;
	if (cpu_allowed(p, p->cpu))
		return p->cpu;
	for_each_cpu(cpu, &cpu_active_mask)
		if (cpumask_test_cpu(cpu, &p->cpus_mask))
			return cpu;
	return cpumask_first(&p->cpus_mask);	/* not up yet */
}

/* cpu looks at its queue: a reschedule IPI, or need_resched when it is
 * this CPU (an interrupt that came in idle, or idle itself). */
static void resched_cpu(int cpu)
{
	if (cpu == smp_processor_id())
		current->need_resched = true;
	else
		apic_send_IPI(cpu, RESCHEDULE_VECTOR);
}

/*
 * A task allowed on mask was queued on rq: rq's CPU looks at once if it
 * idles; otherwise the task waits there, and an idle CPU of mask is asked
 * to come and take it (steal_task). The barrier orders the enqueue before
 * these looks, as a CPU going idle orders its rq->curr before its look at
 * the queues: one of the two sees the other. Any rq lock held or none.
 */
static void kick_for(struct rq *rq, const struct cpumask *mask)
{
	int cpu;

	smp_mb();
	if (READ_ONCE(rq->curr) == rq->idle) {
		resched_cpu(rq->cpu);
		return;
	}
	for_each_cpu(cpu, &cpu_active_mask)
		if (cpumask_test_cpu(cpu, mask) && idle_cpu(cpu)) {
			resched_cpu(cpu);
			return;
		}
}

/*
 * p, on no queue and no CPU, belongs to rq (locked) and goes on cpu's
 * queue. Another CPU's is reached in two steps, so that no CPU holds two
 * rq locks: p is MIGRATING, on neither, while rq's lock is let go and the
 * other taken (Linux's move_queued_task). Returns with no rq lock held,
 * interrupts still off, and cpu kicked.
 */
static void move_task(struct rq *rq, struct task_struct *p, int cpu)
{
	struct cpumask mask = p->cpus_mask;

	if (cpu != rq->cpu) {
		p->on_rq = TASK_ON_RQ_MIGRATING;
		WRITE_ONCE(p->cpu, cpu);
		spin_unlock(&rq->lock);
		rq = cpu_rq(cpu);
		spin_lock(&rq->lock);
	}
	activate_task(rq, p);
	spin_unlock(&rq->lock);
	kick_for(rq, &mask);
}

/* p's rq held: the state becomes RUNNING. True if p must be queued: it is
 * on no queue and no CPU (a task still running or queued keeps its place:
 * its schedule() sees RUNNING; one still switching away holds its CPU's
 * rq lock, so it cannot be seen here). */
static bool ttwu_runnable(struct task_struct *p)
{
	if (p->state == TASK_INTERRUPTIBLE || p->state == TASK_UNINTERRUPTIBLE)
		p->state = TASK_RUNNING;
	return p->state == TASK_RUNNING && !p->on_rq && !is_idle_task(p);
}

/*
 * Linux's try_to_wake_up: a sleeper (or a new task, or a stopped one made
 * RUNNING) goes on the queue of the CPU select_task_rq chooses, off its
 * rq's timed sleepers. Any context, no rq lock held.
 */
static void try_to_wake_up(struct task_struct *p)
{
	unsigned long flags;
	struct rq *rq = task_rq_lock(p, &flags);

	if (!ttwu_runnable(p)) {
		task_rq_unlock(rq, flags);
		return;
	}
	list_del_init(&p->timeout_list);
	move_task(rq, p, select_task_rq(p));
	local_irq_restore(flags);
}

/* t runs on another CPU: a reschedule IPI sends it through
 * prepare_exit_to_usermode, where it sees what changed for it (a signal)
 * now rather than at its next tick (Linux's kick_process). No rq lock
 * held; t's is taken. */
void kick_process(struct task_struct *t)
{
	unsigned long flags;
	struct rq *rq = task_rq_lock(t, &flags);

	if (rq->curr == t && rq->cpu != smp_processor_id())
		apic_send_IPI(rq->cpu, RESCHEDULE_VECTOR);
	task_rq_unlock(rq, flags);
}

void wake_up_process(struct task_struct *t)
{
	try_to_wake_up(t);
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

/* A queued task of src that may run on rq's CPU moves to rq's queue.
 * No rq lock held, interrupts off. */
static bool steal_from(struct rq *src, struct rq *rq)
{
	struct task_struct *p;

	spin_lock(&src->lock);
	list_for_each_entry(p, &src->queue, run_list)
		if (cpumask_test_cpu(rq->cpu, &p->cpus_mask)) {
			dequeue_task(src, p);
			deactivate_task(src, p, TASK_ON_RQ_MIGRATING);
			move_task(src, p, rq->cpu);
			return true;
		}
	spin_unlock(&src->lock);
	return false;
}

/* rq may have a task to give: min or more queued, one of them at least
 * allowed elsewhere. An unlocked look. */
static bool can_steal_from(struct rq *rq, unsigned int min)
{
	return READ_ONCE(rq->nr_queued) >= min && READ_ONCE(rq->nr_migratory);
}

/*
 * Idle stealing (Linux's newidle balance, simplified): the longest
 * waiting task that may run here, from the first other CPU, in turn from
 * this one, with at least min queued, comes to this CPU's queue. min is 1
 * for a CPU about to idle, 2 for one with a task of its own, so that two
 * CPUs do not pass one task back and forth. No rq lock held, interrupts
 * off. True if a task came.
 */
static bool steal_task(struct rq *rq, unsigned int min)
{
	int i, cpu;

	smp_mb();	/* rq->curr is idle before the looks (kick_for) */
	for (i = 1; i < nr_cpu_ids; i++) {
		cpu = (rq->cpu + i) % nr_cpu_ids;
		if (can_steal_from(cpu_rq(cpu), min) &&
		    steal_from(cpu_rq(cpu), rq))
			return true;
	}
	return false;
}

/*
 * prev leaves its CPU, rq's lock held: still RUNNING, it goes back to the
 * tail of the queue, or is marked MIGRATING when it may no longer run
 * here (finish_lock_switch moves it); asleep, it leaves the queue, for
 * the tick's list of rq if it has a wake_at_ns.
 */
static void put_prev_task(struct rq *rq, struct task_struct *prev)
{
	if (is_idle_task(prev))
		return;
	if (prev->state != TASK_RUNNING) {
		deactivate_task(rq, prev, 0);
		if (prev->wake_at_ns)
			list_add_tail(&prev->timeout_list, &rq->timeouts);
	} else if (!cpumask_test_cpu(rq->cpu, &prev->cpus_mask)) {
		deactivate_task(rq, prev, TASK_ON_RQ_MIGRATING);
	} else {
		enqueue_task(rq, prev);
	}
}

/* The next task for rq's CPU: the head of its queue, else its idle task.
 * Every task queued on rq may run there. rq's lock held. */
static struct task_struct *pick_next_task(struct rq *rq)
{
	struct task_struct *next;

	if (list_empty(&rq->queue))
		return rq->idle;
	next = list_first_entry(&rq->queue, struct task_struct, run_list);
	dequeue_task(rq, next);
	return next;
}

/*
 * The end of a switch, on the new task's stack, with this CPU's rq lock
 * held and interrupts off: the task this CPU left is off it now (its
 * stack is free to go: a zombie's parent may be waiting for that). One
 * that released itself (PF_DEAD, an exited thread) is this CPU's to free,
 * later, in free_dead_task; one MIGRATING goes to a CPU it may run on.
 * Returns with the lock released, interrupts still off.
 */
static void finish_lock_switch(struct rq *rq)
{
	struct task_struct *prev = this_cpu_read(prev_task);
	bool push = prev->on_rq == TASK_ON_RQ_MIGRATING;

	if (prev->flags & PF_DEAD)
		this_cpu_write(dead_task, prev);
	/* From here a reaped zombie's parent may free prev (RUNNING, a
	 * pushed one cannot be a zombie). */
	__atomic_store_n(&prev->on_cpu, false, __ATOMIC_RELEASE);
	if (push)
		move_task(rq, prev, select_task_rq(prev));
	else
		spin_unlock(&rq->lock);
}

/* The stack and struct of the task finish_lock_switch found dead, now
 * that no CPU runs on them; the big kernel lock, as put_task_struct drops
 * the signal_struct. No spinlock held, interrupts on. */
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

/* A new task's first code (ret_from_fork): this CPU's rq lock held,
 * interrupts off, as schedule() switched; returns with neither. */
void finish_task_switch(void)
{
	finish_lock_switch(this_rq());
	local_irq_enable();
	free_dead_task();
}

/* Switches this CPU from prev to next; rq's lock held, interrupts off.
 * Returns in prev once a CPU, maybe another, switches back to it, with
 * that CPU's rq lock released. */
static void context_switch(struct rq *rq, struct task_struct *prev,
			   struct task_struct *next)
{
	this_cpu_ptr()->nr_switches++;
	next->on_cpu = true;
	WRITE_ONCE(rq->curr, next);
	this_cpu_write(prev_task, prev);
	this_cpu_write(current_task, next);
	switch_to(prev, next);
	finish_lock_switch(this_rq());	/* prev runs again, maybe elsewhere */
}

/*
 * Gives this CPU to the next runnable task (maybe the same one). A task
 * going to sleep has set its state first; if that was not RUNNING it
 * leaves its queue (with a wake_at_ns, for its CPU's tick). With nothing
 * else queued here, a task waiting on another CPU may be taken first
 * (steal_task). Process context, interrupts on, no spinlock held; the
 * big kernel lock is let go meanwhile and held again on return.
 */
void schedule(void)
{
	struct task_struct *prev = current, *next;
	unsigned long flags;
	struct rq *rq;

	if (unlikely(spin_locks_held()))
		schedule_bug(prev);
	release_kernel_lock(prev);
	local_irq_save(flags);
	rq = this_rq();
	if (!is_idle_task(prev) && !READ_ONCE(rq->nr_queued))
		steal_task(rq, prev->state == TASK_RUNNING ? 2 : 1);
	spin_lock(&rq->lock);
	prev->need_resched = false;
	put_prev_task(rq, prev);
	next = pick_next_task(rq);
	next->ticks = 0;
	if (next != prev) {
		if (!list_empty(&prev->run_list))	/* prev waits */
			kick_for(rq, &prev->cpus_mask);
		context_switch(rq, prev, next);
	} else {
		spin_unlock(&rq->lock);
	}
	local_irq_restore(flags);
	reacquire_kernel_lock(prev);
	free_dead_task();
}

/* The first of rq's timed sleepers whose time has come, or NULL. rq's
 * lock held. */
static struct task_struct *first_expired(struct rq *rq, u64 now)
{
	struct task_struct *t;

	list_for_each_entry(t, &rq->timeouts, timeout_list)
		if (t->wake_at_ns <= now)
			return t;
	return NULL;
}

/* This CPU's sleepers whose time has come (nanosleep, futex and poll
 * timeouts): each CPU wakes those that slept on it, so no tick takes
 * another CPU's lock. Interrupts off, no rq lock held. */
static void wake_timed_sleepers(struct rq *rq)
{
	u64 now = ktime_get_ns();
	struct task_struct *t;

	for (;;) {
		spin_lock(&rq->lock);
		t = first_expired(rq, now);
		if (!t)
			break;
		list_del_init(&t->timeout_list);
		if (ttwu_runnable(t))
			move_task(rq, t, select_task_rq(t));
		else
			spin_unlock(&rq->lock);
	}
	spin_unlock(&rq->lock);
}

/* Another CPU has two or more tasks waiting: this one, busy with one
 * task, may take one at its next schedule() (steal_task). Unlocked looks. */
static bool queued_elsewhere(int this_cpu)
{
	int cpu;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (cpu != this_cpu && can_steal_from(cpu_rq(cpu), 2))
			return true;
	return false;
}

/* Interrupt context. Each CPU wakes its own timed sleepers, and asks for
 * a switch when its task used its slice and another waits here, or two
 * wait on another CPU. Only this CPU's rq is written. */
static void scheduler_tick(void)
{
	struct task_struct *curr = current;
	struct rq *rq = this_rq();

	if (is_idle_task(curr) ? READ_ONCE(rq->nr_queued) != 0 :
	    ++curr->ticks >= TIMESLICE_TICKS &&
	    (READ_ONCE(rq->nr_queued) || queued_elsewhere(rq->cpu)))
		curr->need_resched = true;
	if (!list_empty(&rq->timeouts))
		wake_timed_sleepers(rq);
}

void update_process_times(bool user)
{
	account_process_tick(current, user);
	itimer_tick(current, user);
	scheduler_tick();
}

/* No lock held; returns once p's last switch away is over (on_cpu is
 * cleared under its CPU's rq lock, after the switch). */
void wait_task_inactive(struct task_struct *p)
{
	while (__atomic_load_n(&p->on_cpu, __ATOMIC_ACQUIRE))
		cpu_relax();
}

void scheduler_ipi(void)
{
	current->need_resched = true;
}

/* Something queued here? Interrupts off, no lock: a wake-up that queues
 * here after this look also kicks this CPU (kick_for), and its IPI stays
 * pending until the hlt. */
static bool cpu_has_work(struct rq *rq)
{
	return READ_ONCE(rq->nr_queued) != 0;
}

/*
 * The idle loop: runs whatever is runnable here, or can be taken from
 * another CPU's queue, and halts when nothing is. The looks and the hlt
 * happen with interrupts off until "sti; hlt", which takes a pending
 * interrupt only once halted: a wake-up IPI after the look is not lost.
 */
void __noreturn cpu_idle(void)
{
	struct rq *rq = this_rq();

	for (;;) {
		local_irq_disable();
		if (!current->need_resched && !cpu_has_work(rq) &&
		    !steal_task(rq, 1)) {
			asm volatile("sti; hlt" : : : "memory");
			continue;
		}
		local_irq_enable();
		schedule();
	}
}

/* The caller goes to the tail of its CPU's queue, behind the tasks
 * waiting there; alone there, it goes on at once, unless another CPU has
 * two or more waiting and this one takes one of them (steal_task). */
static long sys_sched_yield(void)
{
	schedule();
	return 0;
}
SYSCALL(__NR_sched_yield, sys_sched_yield);

/* The task a pid names for the sched_* calls: 0 is the caller. */
static struct task_struct *find_process_by_pid(int pid)
{
	return pid ? find_task_by_pid(pid) : current;
}

/* ---- policies ---------------------------------------------------------- */

#define SCHED_OTHER	0
#define SCHED_FIFO	1
#define SCHED_RR	2
#define SCHED_BATCH	3
#define SCHED_IDLE	5
#define SCHED_DEADLINE	6

struct sched_param {
	int sched_priority;
};

/* Every task is SCHED_OTHER: zpk's one class, equal round-robin slices
 * (nice only orders getpriority). */
static long sys_sched_getscheduler(int pid)
{
	if (pid < 0)
		return -EINVAL;
	return find_process_by_pid(pid) ? SCHED_OTHER : -ESRCH;
}
SYSCALL(__NR_sched_getscheduler, sys_sched_getscheduler);

static long sys_sched_getparam(int pid, struct sched_param __user *param)
{
	struct sched_param p = { 0 };

	if (pid < 0 || !param)
		return -EINVAL;
	if (!find_process_by_pid(pid))
		return -ESRCH;
	return copy_to_user(param, &p, sizeof(p)) ? -EFAULT : 0;
}
SYSCALL(__NR_sched_getparam, sys_sched_getparam);

/* Linux's checks, in its order; then only SCHED_OTHER (priority 0) can
 * be had: the other classes zpk lacks are -EPERM, as for a caller
 * Linux would not let have them. */
static long set_scheduler(int pid, int policy,
			  const struct sched_param __user *param)
{
	struct sched_param p;
	bool rt = policy == SCHED_FIFO || policy == SCHED_RR;

	if (pid < 0 || !param)
		return -EINVAL;
	if (copy_from_user(&p, param, sizeof(p)))
		return -EFAULT;
	if (!find_process_by_pid(pid))
		return -ESRCH;
	if (policy != SCHED_OTHER && policy != SCHED_BATCH &&
	    policy != SCHED_IDLE && !rt)
		return -EINVAL;
	if (rt ? p.sched_priority < 1 || p.sched_priority > 99 :
		 p.sched_priority != 0)
		return -EINVAL;
	return policy == SCHED_OTHER ? 0 : -EPERM;
}

static long sys_sched_setscheduler(int pid, int policy,
				   const struct sched_param __user *param)
{
	return policy < 0 ? -EINVAL : set_scheduler(pid, policy, param);
}
SYSCALL(__NR_sched_setscheduler, sys_sched_setscheduler);

static long sys_sched_setparam(int pid, const struct sched_param __user *param)
{
	return set_scheduler(pid, SCHED_OTHER, param);
}
SYSCALL(__NR_sched_setparam, sys_sched_setparam);

/* The priorities a policy takes: 1..99 for the real-time ones, 0 for
 * the rest, -EINVAL for no policy. */
static long sys_sched_get_priority_max(int policy)
{
	if (policy == SCHED_FIFO || policy == SCHED_RR)
		return 99;
	return policy == SCHED_OTHER || policy == SCHED_BATCH ||
	       policy == SCHED_IDLE || policy == SCHED_DEADLINE ? 0 : -EINVAL;
}
SYSCALL(__NR_sched_get_priority_max, sys_sched_get_priority_max);

static long sys_sched_get_priority_min(int policy)
{
	long max = sys_sched_get_priority_max(policy);

	return max > 0 ? 1 : max;
}
SYSCALL(__NR_sched_get_priority_min, sys_sched_get_priority_min);

/* ---- CPUs ------------------------------------------------------------- */

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

/*
 * p may run on m from now on. Queued on a CPU outside m, it moves to one
 * in it now; running there, it is asked to switch (a reschedule IPI) and
 * moves at its schedule() (put_prev_task); asleep, its wake-up places it.
 * No rq lock held; p's is taken.
 */
void set_cpus_allowed_ptr(struct task_struct *p, const struct cpumask *m)
{
	unsigned long flags;
	struct rq *rq = task_rq_lock(p, &flags);
	bool queued = p->on_rq == TASK_ON_RQ_QUEUED && rq->curr != p;

	if (queued) {		/* the mask changes off the queue (migratory) */
		dequeue_task(rq, p);
		deactivate_task(rq, p, TASK_ON_RQ_MIGRATING);
	}
	p->cpus_mask = *m;
	if (queued) {
		move_task(rq, p, cpumask_test_cpu(rq->cpu, m) ? rq->cpu :
				 select_task_rq(p));
		local_irq_restore(flags);
		return;
	}
	if (rq->curr == p && !cpumask_test_cpu(rq->cpu, m)) {
		p->need_resched = true;
		if (rq->cpu != smp_processor_id())
			apic_send_IPI(rq->cpu, RESCHEDULE_VECTOR);
	}
	task_rq_unlock(rq, flags);
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
