/* kernel/rwsem.c — reader/writer semaphores (Linux's kernel/locking/
 * rwsem.c, its optimistic spinning simplified): one atomic count that an
 * uncontended taker changes with a single compare-and-exchange, and a
 * queue of sleepers that the last one out hands the lock to. */
#include <zpk/atomic.h>
#include <zpk/bug.h>
#include <zpk/cpumask.h>
#include <zpk/rwsem.h>
#include <zpk/sched.h>
#include <zpk/time.h>

/* How long a taker spins before it sleeps: the mmap_lock's holders (a
 * fault, an mmap) are done in a few microseconds. */
#define RWSEM_SPIN_NS	50000

/* One sleeper, on its own stack. The waker, holding wait_lock, takes it
 * off the queue, counts it in and sets granted before waking it. */
struct rwsem_waiter {
	struct list_head list;
	struct task_struct *task;
	bool write;
	bool granted;
};

static inline long rwsem_count(struct rw_semaphore *sem)
{
	return __atomic_load_n(&sem->count, __ATOMIC_RELAXED);
}

/* count from *old to new, or *old := what it is (Linux's try_cmpxchg). */
static inline bool rwsem_try_cmpxchg(struct rw_semaphore *sem, long *old,
				     long new)
{
	return __atomic_compare_exchange_n(&sem->count, old, new, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline long rwsem_add_return(struct rw_semaphore *sem, long v)
{
	return __atomic_add_fetch(&sem->count, v, __ATOMIC_ACQ_REL);
}

/* A reader goes in if no writer is inside and nobody is queued. */
static bool rwsem_read_trylock(struct rw_semaphore *sem)
{
	long c = rwsem_count(sem);

	while (!(c & RWSEM_READ_FAILED_MASK))
		if (rwsem_try_cmpxchg(sem, &c, c + RWSEM_READER_BIAS))
			return true;
	return false;
}

/* A writer goes in if count is 0: nobody inside, nobody queued. */
static bool rwsem_write_trylock(struct rw_semaphore *sem)
{
	long c = 0;

	if (!rwsem_try_cmpxchg(sem, &c, RWSEM_WRITER_LOCKED))
		return false;
	sem->owner = current;
	return true;
}

/*
 * Hands the lock to the head of the queue if it may go in now, and, if
 * that was a reader, to every reader right behind it (a writer further
 * back keeps its turn); clears FLAG_WAITERS with the last. wait_lock
 * held. While the flag is set no one takes the lock without the queue,
 * and those inside only leave: what is seen free here stays free.
 */
static void rwsem_wake_locked(struct rw_semaphore *sem)
{
	struct rwsem_waiter *w, *n;

	list_for_each_entry_safe(w, n, &sem->wait_list, list) {
		struct task_struct *t = w->task;
		bool write = w->write;
		long c = rwsem_count(sem), add;

		if ((c & RWSEM_WRITER_LOCKED) ||
		    (write && (c >> RWSEM_READER_SHIFT)))
			break;
		list_del(&w->list);
		add = write ? RWSEM_WRITER_LOCKED : RWSEM_READER_BIAS;
		if (list_empty(&sem->wait_list))
			add -= RWSEM_FLAG_WAITERS;
		rwsem_add_return(sem, add);
		if (write)
			sem->owner = t;
		WRITE_ONCE(w->granted, true);	/* w may vanish now */
		if (t != current)
			wake_up_process(t);
		if (write)
			break;
	}
}

/* The last one out saw someone queued: up_read's and up_write's slow
 * path. */
static void rwsem_wake(struct rw_semaphore *sem)
{
	spin_lock(&sem->wait_lock);
	rwsem_wake_locked(sem);
	spin_unlock(&sem->wait_lock);
}

/* Queues current and sleeps until a waker grants it the lock. Called and
 * returns with wait_lock held. The holder may have left before it could
 * see FLAG_WAITERS: after setting it, wake whoever may go in now (it may
 * be current). */
static void rwsem_wait(struct rw_semaphore *sem, bool write)
{
	struct rwsem_waiter w = { .task = current, .write = write };

	list_add_tail(&w.list, &sem->wait_list);
	__atomic_fetch_or(&sem->count, RWSEM_FLAG_WAITERS, __ATOMIC_ACQ_REL);
	rwsem_wake_locked(sem);
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(w.granted))
			break;
		spin_unlock(&sem->wait_lock);
		schedule();
		spin_lock(&sem->wait_lock);
	}
	__set_current_state(TASK_RUNNING);
}

/*
 * Waits a little for sem to look free before the caller queues and
 * sleeps (Linux's rwsem_optimistic_spin): the holders are short and run
 * on other CPUs, and a sleep costs a switch to idle, a halt and a wake-up
 * IPI, an expensive round trip on a virtual CPU. Not while others sleep
 * in the queue (their turn comes first), nor once a writer inside is
 * asleep itself, nor on one CPU. Without wait_lock: the caller checks
 * again under it.
 */
static void rwsem_spin(struct rw_semaphore *sem, bool write)
{
	u64 until;

	if (num_online_cpus() == 1)
		return;
	until = ktime_get_ns() + RWSEM_SPIN_NS;
	while (ktime_get_ns() < until) {
		long c = rwsem_count(sem);
		struct task_struct *owner = READ_ONCE(sem->owner);

		if (c & RWSEM_FLAG_WAITERS)
			return;
		if (write ? c == 0 : !(c & RWSEM_WRITER_LOCKED))
			return;
		if ((c & RWSEM_WRITER_LOCKED) && owner &&
		    !READ_ONCE(owner->on_cpu))
			return;
		cpu_relax();
	}
}

static void __noinline rwsem_down_read_slowpath(struct rw_semaphore *sem)
{
	rwsem_spin(sem, false);
	spin_lock(&sem->wait_lock);
	if (!rwsem_read_trylock(sem))
		rwsem_wait(sem, false);
	spin_unlock(&sem->wait_lock);
}

static void __noinline rwsem_down_write_slowpath(struct rw_semaphore *sem)
{
	rwsem_spin(sem, true);
	spin_lock(&sem->wait_lock);
	if (!rwsem_write_trylock(sem))
		rwsem_wait(sem, true);
	spin_unlock(&sem->wait_lock);
}

void down_read(struct rw_semaphore *sem)
{
	might_sleep();
	if (unlikely(!rwsem_read_trylock(sem)))
		rwsem_down_read_slowpath(sem);
}

bool down_read_trylock(struct rw_semaphore *sem)
{
	return rwsem_read_trylock(sem);
}

/* The last reader out with someone queued hands the lock on. */
void up_read(struct rw_semaphore *sem)
{
	long c = rwsem_add_return(sem, -RWSEM_READER_BIAS);

	BUG_ON(c < 0);
	if (unlikely(c == RWSEM_FLAG_WAITERS))
		rwsem_wake(sem);
}

void down_write(struct rw_semaphore *sem)
{
	might_sleep();
	if (unlikely(!rwsem_write_trylock(sem)))
		rwsem_down_write_slowpath(sem);
}

bool down_write_trylock(struct rw_semaphore *sem)
{
	return rwsem_write_trylock(sem);
}

void up_write(struct rw_semaphore *sem)
{
	long c;

	sem->owner = NULL;
	c = rwsem_add_return(sem, -RWSEM_WRITER_LOCKED);
	BUG_ON(c < 0 || (c & RWSEM_WRITER_LOCKED));
	if (unlikely(c & RWSEM_FLAG_WAITERS))
		rwsem_wake(sem);
}
