/* kernel/tests/ktest_rwsem.c — the rw_semaphore on every CPU at once: a kernel
 * thread per CPU takes one semaphore for reading and for writing, round
 * after round, and checks what must hold inside (a writer alone, readers
 * together); the count is back to 0 after. On one CPU that is one
 * thread, and it checks the uncontended paths only; the queue is
 * a_queued_reader_gets_the_lock_from_up_write's. */
#include <zpk/atomic.h>
#include <zpk/ktest.h>
#include <zpk/kthread.h>
#include <zpk/rwsem.h>
#include <zpk/sched.h>
#include <zpk/smp.h>

#define ROUNDS		2000

struct rwsem_race {
	struct rw_semaphore sem;
	atomic_t readers;		/* inside for reading now */
	atomic_t writers;		/* inside for writing now */
	atomic_t errors;
	atomic_t writes, reads;		/* rounds done of each */
};

static void hold_a_little(int r)
{
	for (int i = 0; i < r % 32; i++)
		cpu_relax();
}

static void read_round(struct rwsem_race *x, int r, bool try)
{
	if (!try)
		down_read(&x->sem);
	else if (!down_read_trylock(&x->sem))
		return;
	atomic_inc(&x->readers);
	if (atomic_read(&x->writers))
		atomic_inc(&x->errors);
	hold_a_little(r);
	if (atomic_read(&x->writers))
		atomic_inc(&x->errors);
	atomic_dec(&x->readers);
	atomic_inc(&x->reads);
	up_read(&x->sem);
}

static void write_round(struct rwsem_race *x, int r, bool try)
{
	if (!try)
		down_write(&x->sem);
	else if (!down_write_trylock(&x->sem))
		return;
	if (atomic_inc_return(&x->writers) != 1 || atomic_read(&x->readers))
		atomic_inc(&x->errors);
	hold_a_little(r);
	if (atomic_read(&x->readers))
		atomic_inc(&x->errors);
	atomic_dec(&x->writers);
	atomic_inc(&x->writes);
	up_write(&x->sem);
}

/* Mostly reads, as the mmap_lock sees; every CPU its own mix. */
static int rwsem_thread(void *arg)
{
	struct rwsem_race *x = arg;
	int cpu = smp_processor_id();

	for (int r = 0; r < ROUNDS; r++) {
		if ((r + cpu) % 5 == 0)
			write_round(x, r, r % 7 == 0);
		else
			read_round(x, r, r % 11 == 0);
		if (r % 64 == cpu)
			schedule();
	}
	return 0;
}

KTEST(rwsem, readers_together_writers_alone_on_every_cpu)
{
	static struct rwsem_race x;

	init_rwsem(&x.sem);
	atomic_set(&x.readers, 0);
	atomic_set(&x.writers, 0);
	atomic_set(&x.errors, 0);
	atomic_set(&x.reads, 0);
	atomic_set(&x.writes, 0);
	KEXPECT_EQ(ktest_run_on_every_cpu(rwsem_thread, &x, "krwsem"), 0);
	KEXPECT_EQ(atomic_read(&x.errors), 0);
	KEXPECT_EQ(x.sem.count, 0);
	KEXPECT_TRUE(list_empty(&x.sem.wait_list));
	KEXPECT_TRUE(atomic_read(&x.writes) > 0 && atomic_read(&x.reads) > 0);
}

/* The uncontended answers: readers together, a writer alone. */
KTEST(rwsem, trylock_rules)
{
	DECLARE_RWSEM(sem);

	KEXPECT_TRUE(down_read_trylock(&sem));
	KEXPECT_TRUE(down_read_trylock(&sem));
	KEXPECT_EQ(sem.count, 2 * RWSEM_READER_BIAS);
	KEXPECT_FALSE(down_write_trylock(&sem));
	up_read(&sem);
	up_read(&sem);
	KEXPECT_TRUE(down_write_trylock(&sem));
	KEXPECT_EQ(sem.count, RWSEM_WRITER_LOCKED);
	KEXPECT_TRUE(sem.owner == current);
	KEXPECT_FALSE(down_read_trylock(&sem));
	KEXPECT_FALSE(down_write_trylock(&sem));
	up_write(&sem);
	KEXPECT_EQ(sem.count, 0);
	KEXPECT_TRUE(sem.owner == NULL);
}

static int queued_reader(void *arg)
{
	struct rw_semaphore *sem = arg;

	down_read(sem);		/* queues: the test holds it for writing */
	up_read(sem);
	return 0;
}

/* A reader queued behind a writer sets FLAG_WAITERS, which turns every
 * trylock away (nobody passes the queue); up_write hands it the lock. */
KTEST(rwsem, a_queued_reader_gets_the_lock_from_up_write)
{
	static DECLARE_RWSEM(sem);
	struct kthread *k;

	down_write(&sem);
	k = kthread_run_on_cpu(queued_reader, &sem, smp_processor_id(),
			       "krwsemq");
	KEXPECT_NOT_NULL(k);
	if (!k) {
		up_write(&sem);
		return;
	}
	while (!(READ_ONCE(sem.count) & RWSEM_FLAG_WAITERS))
		schedule();
	KEXPECT_EQ(sem.count, RWSEM_WRITER_LOCKED | RWSEM_FLAG_WAITERS);
	KEXPECT_FALSE(down_read_trylock(&sem));
	up_write(&sem);
	KEXPECT_EQ(kthread_join(k), 0);
	KEXPECT_EQ(sem.count, 0);
	KEXPECT_TRUE(list_empty(&sem.wait_list));
}
