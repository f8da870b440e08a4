/* zpk/spinlock.h — spinlock_t (Linux's): a lock a CPU busy-waits for. Held
 * briefly and never across a sleep; the _irqsave forms also keep this
 * CPU's interrupts off, for data that an interrupt handler takes too. */
#ifndef ZPK_SPINLOCK_H
#define ZPK_SPINLOCK_H

#include <asm/irqflags.h>
#include <asm/percpu.h>
#include <zpk/types.h>

/*
 * A test-and-set lock: a CPU swaps 1 into locked (xchg) until it reads 0
 * back, and while it waits it only reads, so the waiters do not bounce
 * the cache line. Linux uses the same when it runs as a guest without
 * paravirtual locks (virt_spin_lock): virtual CPUs are descheduled by the
 * host, and a fair lock (tickets, queues) would wait for a waiter that is
 * not running. That is zpk's case under QEMU with more vCPUs than host
 * cores. The debug fields are always on: the CPU that holds the lock, and
 * its name for the reports (kernel/spinlock.c). All zeros is a free lock,
 * so a lock in kzalloc'd memory needs no init.
 */
typedef struct spinlock {
	u32 locked;		/* 1 while held */
	int owner;		/* debug: the holder's CPU + 1; 0 if free */
	const char *name;	/* debug: the variable's name, or NULL */
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(lockname)	{ .name = #lockname }
#define DEFINE_SPINLOCK(x)	spinlock_t x = __SPIN_LOCK_UNLOCKED(x)
#define spin_lock_init(lock)	(*(lock) = (spinlock_t)__SPIN_LOCK_UNLOCKED(lock))

#ifndef HOST_TEST
/*
 * Takes lock, spinning while another CPU holds it. Reports (and stops the
 * kernel on) a CPU taking a lock it already holds: it would wait forever.
 * Must not be called where the lock's other users include an interrupt
 * handler unless interrupts are off (use spin_lock_irqsave).
 */
static inline void spin_lock(spinlock_t *lock);
/* Takes lock if it is free: true if taken. */
bool spin_trylock(spinlock_t *lock);
/* Releases lock; reports a lock that is not held, or held by another CPU. */
static inline void spin_unlock(spinlock_t *lock);
/* The lock and its recursion and owner checks, without counting
 * it among the locks this CPU holds: for the big kernel lock, which stays
 * held while its holder sleeps (zpk/smp_lock.h). */
void arch_spin_lock(spinlock_t *lock);
void arch_spin_unlock(spinlock_t *lock);
/* spin_unlock of a lock this CPU does not hold: the reports. */
void spin_unlock_slow(spinlock_t *lock);
/* BUGs unless this CPU holds lock (Linux's lockdep_assert_held). */
void assert_spin_locked(spinlock_t *lock);
/* How many spinlocks this CPU holds now (schedule() must see 0). */
static inline int spin_locks_held(void)
{
	return this_cpu_read(spin_count);
}

/* The usual cases inline, a few instructions each: a free lock taken, a
 * lock this CPU holds released. Waiting and every report are out of line
 * (kernel/spinlock.c). */
static inline void spin_lock(spinlock_t *lock)
{
	if (unlikely(__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE)))
		arch_spin_lock(lock);	/* held: wait, or report recursion */
	else
		lock->owner = smp_processor_id() + 1;
	this_cpu_add_int(spin_count, 1);
}

static inline void spin_unlock(spinlock_t *lock)
{
	if (likely(lock->owner == smp_processor_id() + 1 && lock->locked)) {
		lock->owner = 0;
		__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
		this_cpu_add_int(spin_count, -1);
	} else {
		spin_unlock_slow(lock);
	}
}
#else
/* Host tests are single-threaded: the lock only records its holder. */
static inline void spin_lock(spinlock_t *lock)
{
	lock->owner = 1;
}
static inline bool spin_trylock(spinlock_t *lock)
{
	if (lock->owner)
		return false;
	lock->owner = 1;
	return true;
}
static inline void spin_unlock(spinlock_t *lock)
{
	lock->owner = 0;
}
static inline void assert_spin_locked(spinlock_t *lock)
{
	(void)lock;
}
/* Nothing counts the locks held here: might_sleep's check is the
 * kernel's. */
static inline int spin_locks_held(void)
{
	return 0;
}
#endif

static inline bool spin_is_locked(spinlock_t *lock)
{
	return *(volatile u32 *)&lock->locked;
}

/* Interrupts off on this CPU (saved in flags), then the lock. */
#define spin_lock_irqsave(lock, flags) do {				\
	local_irq_save(flags);						\
	spin_lock(lock);						\
} while (0)

static inline void spin_unlock_irqrestore(spinlock_t *lock,
					  unsigned long flags)
{
	spin_unlock(lock);
	local_irq_restore(flags);
}

/* The same where interrupts are known to be on. */
static inline void spin_lock_irq(spinlock_t *lock)
{
	local_irq_disable();
	spin_lock(lock);
}

static inline void spin_unlock_irq(spinlock_t *lock)
{
	spin_unlock(lock);
	local_irq_enable();
}

#endif
