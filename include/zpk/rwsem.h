/* zpk/rwsem.h — reader/writer semaphores (Linux's rw_semaphore): many
 * readers or one writer inside; the others spin a little, then sleep,
 * served in arrival order. Uncontended, taking or releasing one is a
 * single atomic operation on count.
 * The mm's mmap_lock is one. Process context only. */
#ifndef ZPK_RWSEM_H
#define ZPK_RWSEM_H

#include <zpk/list.h>
#include <zpk/spinlock.h>

struct task_struct;

/* count, as Linux's: bit 0 a writer inside, bit 1 someone queued (set
 * exactly while wait_list is not empty: nobody then goes in but through
 * the queue), and from bit 8 up the readers inside. */
#define RWSEM_WRITER_LOCKED	(1L << 0)
#define RWSEM_FLAG_WAITERS	(1L << 1)
#define RWSEM_READER_SHIFT	8
#define RWSEM_READER_BIAS	(1L << RWSEM_READER_SHIFT)
#define RWSEM_READ_FAILED_MASK	(RWSEM_WRITER_LOCKED | RWSEM_FLAG_WAITERS)

struct rw_semaphore {
	long count;			/* the state above, changed atomically */
	spinlock_t wait_lock;		/* protects wait_list */
	struct list_head wait_list;	/* sleepers, struct rwsem_waiter */
	struct task_struct *owner;	/* the writer inside, for spinners */
};

#define __RWSEM_INITIALIZER(name) {					\
	.wait_lock = __SPIN_LOCK_UNLOCKED(name.wait_lock),		\
	.wait_list = LIST_HEAD_INIT((name).wait_list) }
#define DECLARE_RWSEM(name)	struct rw_semaphore name = __RWSEM_INITIALIZER(name)

static inline void init_rwsem(struct rw_semaphore *sem)
{
	spin_lock_init(&sem->wait_lock);
	sem->count = 0;
	INIT_LIST_HEAD(&sem->wait_list);
	sem->owner = 0;
}

#ifndef HOST_TEST
/* Waits (uninterruptibly) while a writer is inside or waiting. */
void down_read(struct rw_semaphore *sem);
void up_read(struct rw_semaphore *sem);
/* Waits while anyone is inside or waiting. */
void down_write(struct rw_semaphore *sem);
void up_write(struct rw_semaphore *sem);
/* Takes sem without waiting, or returns false. */
bool down_read_trylock(struct rw_semaphore *sem);
bool down_write_trylock(struct rw_semaphore *sem);
#else
/* Host tests are single-threaded: the count alone. */
static inline void down_read(struct rw_semaphore *sem)
{
	sem->count += RWSEM_READER_BIAS;
}
static inline void up_read(struct rw_semaphore *sem)
{
	sem->count -= RWSEM_READER_BIAS;
}
static inline void down_write(struct rw_semaphore *sem)
{
	sem->count = RWSEM_WRITER_LOCKED;
}
static inline void up_write(struct rw_semaphore *sem) { sem->count = 0; }
static inline bool down_read_trylock(struct rw_semaphore *sem)
{
	down_read(sem);
	return true;
}
static inline bool down_write_trylock(struct rw_semaphore *sem)
{
	down_write(sem);
	return true;
}
#endif

#endif
