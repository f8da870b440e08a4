/* kernel/rwsem.c — reader/writer semaphores (Linux's kernel/locking/
 * rwsem.c, its optimistic spinning simplified): a count, and a queue of
 * sleepers that the last one out hands the lock to. */
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

/* Queues current and sleeps until a waker grants it the lock. Called and
 * returns with wait_lock held. */
static void rwsem_wait(struct rw_semaphore *sem, bool write)
{
	struct rwsem_waiter w = { .task = current, .write = write };

	list_add_tail(&w.list, &sem->wait_list);
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

/* The first waiter goes in; if it is a reader, every reader queued right
 * behind it too (a writer further back keeps its turn). wait_lock held,
 * and nobody inside (count 0). */
static void rwsem_wake(struct rw_semaphore *sem)
{
	struct rwsem_waiter *w, *n;

	list_for_each_entry_safe(w, n, &sem->wait_list, list) {
		struct task_struct *t = w->task;

		if (w->write && sem->count)
			break;		/* readers went in first */
		list_del(&w->list);
		sem->count = w->write ? -1 : sem->count + 1;
		if (w->write)
			sem->owner = t;
		WRITE_ONCE(w->granted, true);	/* w may vanish now */
		wake_up_process(t);
		if (sem->count < 0)
			break;
	}
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
		long count = READ_ONCE(sem->count);
		struct task_struct *owner = READ_ONCE(sem->owner);

		if (!list_empty(&sem->wait_list))
			return;
		if (write ? count == 0 : count >= 0)
			return;
		if (count < 0 && owner && !READ_ONCE(owner->on_cpu))
			return;
		cpu_relax();
	}
}

void down_read(struct rw_semaphore *sem)
{
	might_sleep();
	spin_lock(&sem->wait_lock);
	if (sem->count < 0 || !list_empty(&sem->wait_list)) {
		spin_unlock(&sem->wait_lock);
		rwsem_spin(sem, false);
		spin_lock(&sem->wait_lock);
	}
	if (sem->count >= 0 && list_empty(&sem->wait_list))
		sem->count++;
	else
		rwsem_wait(sem, false);
	spin_unlock(&sem->wait_lock);
}

bool down_read_trylock(struct rw_semaphore *sem)
{
	bool ok;

	spin_lock(&sem->wait_lock);
	ok = sem->count >= 0 && list_empty(&sem->wait_list);
	if (ok)
		sem->count++;
	spin_unlock(&sem->wait_lock);
	return ok;
}

void up_read(struct rw_semaphore *sem)
{
	spin_lock(&sem->wait_lock);
	BUG_ON(sem->count <= 0);
	if (--sem->count == 0 && !list_empty(&sem->wait_list))
		rwsem_wake(sem);
	spin_unlock(&sem->wait_lock);
}

void down_write(struct rw_semaphore *sem)
{
	might_sleep();
	spin_lock(&sem->wait_lock);
	if (sem->count || !list_empty(&sem->wait_list)) {
		spin_unlock(&sem->wait_lock);
		rwsem_spin(sem, true);
		spin_lock(&sem->wait_lock);
	}
	if (sem->count == 0 && list_empty(&sem->wait_list)) {
		sem->count = -1;
		sem->owner = current;
	} else {
		rwsem_wait(sem, true);
	}
	spin_unlock(&sem->wait_lock);
}

bool down_write_trylock(struct rw_semaphore *sem)
{
	bool ok;

	spin_lock(&sem->wait_lock);
	ok = sem->count == 0 && list_empty(&sem->wait_list);
	if (ok) {
		sem->count = -1;
		sem->owner = current;
	}
	spin_unlock(&sem->wait_lock);
	return ok;
}

void up_write(struct rw_semaphore *sem)
{
	spin_lock(&sem->wait_lock);
	BUG_ON(sem->count != -1);
	sem->count = 0;
	sem->owner = NULL;
	rwsem_wake(sem);
	spin_unlock(&sem->wait_lock);
}
