/* kernel/kernel_lock.c — the big kernel lock (Linux's lib/kernel_lock.c
 * before 2.6.39): a spinlock its holder keeps across calls, by depth, and
 * schedule() drops while the holder sleeps. */
#include <asm/irqflags.h>
#include <zpk/bug.h>
#include <zpk/sched.h>
#include <zpk/smp_lock.h>
#include <zpk/spinlock.h>

/* The big kernel lock itself (Linux's kernel_flag): see zpk/smp_lock.h
 * and docs/smp.md for what it protects. */
static DEFINE_SPINLOCK(kernel_flag);

/* Spinning with interrupts on: the holder may be waiting for this CPU
 * to answer an IPI (a TLB shootdown). */
void lock_kernel(void)
{
	struct task_struct *t = current;

	BUG_ON(irqs_disabled() && system_state != SYSTEM_BOOTING);
	if (t->lock_depth++ == 0)
		arch_spin_lock(&kernel_flag);
}

void unlock_kernel(void)
{
	struct task_struct *t = current;

	BUG_ON(t->lock_depth <= 0);
	if (--t->lock_depth == 0)
		arch_spin_unlock(&kernel_flag);
}

bool kernel_locked(void)
{
	return current->lock_depth > 0;
}

void release_kernel_lock(struct task_struct *task)
{
	if (task->lock_depth)
		arch_spin_unlock(&kernel_flag);
}

void reacquire_kernel_lock(struct task_struct *task)
{
	if (task->lock_depth)
		arch_spin_lock(&kernel_flag);
}
