/* kernel/spinlock.c — spin_lock and spin_unlock with their debug checks
 * (Linux's lib/spinlock_debug.c): each report names the lock, CPU and task. */
#include <asm/percpu.h>
#include <zpk/atomic.h>
#include <zpk/bug.h>
#include <zpk/kallsyms.h>
#include <zpk/printk.h>
#include <zpk/sched.h>
#include <zpk/spinlock.h>


/* Linux's spin_bug(): what went wrong, where, and the backtrace. */
static void spin_bug(spinlock_t *lock, const char *msg)
{
	struct task_struct *t = current;

	printk(KERN_EMERG "BUG: spinlock %s on CPU#%d, %s/%d\n", msg,
	       smp_processor_id(), t->comm, t->pid);
	printk(KERN_EMERG " lock: %s, .owner_cpu: %d\n",
	       lock->name ? lock->name : "(unnamed)",
	       READ_ONCE(lock->owner) - 1);
	dump_stack();
}

/* The count of locks a CPU holds: its own, with one %gs add; another
 * CPU's (a reported wrong-CPU unlock takes the lock off its holder's
 * count) with an atomic. */
static void spin_count_add(int cpu, int n)
{
	if (cpu == smp_processor_id())
		this_cpu_add_int(spin_count, n);
	else
		__atomic_fetch_add(&per_cpu(spin_count, cpu), n,
				   __ATOMIC_SEQ_CST);
}

/* One attempt: true if this CPU swapped the lock from 0 to 1. */
static bool try_take(spinlock_t *lock)
{
	return !__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE);
}

void arch_spin_lock(spinlock_t *lock)
{
	int cpu = smp_processor_id();

	if (unlikely(READ_ONCE(lock->owner) == cpu + 1)) {
		spin_bug(lock, "recursion");
		panic("spinlock recursion: %s would wait for itself",
		      lock->name ? lock->name : "(unnamed)");
	}
	while (!try_take(lock))
		while (READ_ONCE(lock->locked))
			cpu_relax();
	lock->owner = cpu + 1;
}

bool spin_trylock(spinlock_t *lock)
{
	if (!try_take(lock))
		return false;
	lock->owner = smp_processor_id() + 1;
	this_cpu_add_int(spin_count, 1);
	return true;
}

/* Releases lock; false if it was not held (reported). */
static bool __spin_unlock(spinlock_t *lock)
{
	if (unlikely(!spin_is_locked(lock))) {
		spin_bug(lock, "already unlocked");
		return false;
	}
	if (unlikely(lock->owner - 1 != smp_processor_id()))
		spin_bug(lock, "wrong CPU");
	lock->owner = 0;
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
	return true;
}

void arch_spin_unlock(spinlock_t *lock)
{
	__spin_unlock(lock);
}

void spin_unlock_slow(spinlock_t *lock)
{
	int holder = lock->owner - 1;

	if (__spin_unlock(lock) && holder >= 0)
		spin_count_add(holder, -1);
}

void assert_spin_locked(spinlock_t *lock)
{
	if (unlikely(READ_ONCE(lock->owner) != smp_processor_id() + 1)) {
		spin_bug(lock, "not held");
		BUG();
	}
}


