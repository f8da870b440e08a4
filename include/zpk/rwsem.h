/* zpk/rwsem.h — reader/writer semaphores (Linux's rw_semaphore): many
 * readers or one writer inside; the others spin a little, then sleep,
 * served in arrival order.
 * The mm's mmap_lock is one. Process context only. */
#ifndef ZPK_RWSEM_H
#define ZPK_RWSEM_H

#include <zpk/list.h>
#include <zpk/spinlock.h>

struct task_struct;

struct rw_semaphore {
	spinlock_t wait_lock;		/* protects count and wait_list */
	long count;			/* readers inside, or -1: a writer */
	struct list_head wait_list;	/* sleepers, struct rwsem_waiter */
	struct task_struct *owner;	/* debug: the writer inside */
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
static inline void down_read(struct rw_semaphore *sem) { sem->count++; }
static inline void up_read(struct rw_semaphore *sem) { sem->count--; }
static inline void down_write(struct rw_semaphore *sem) { sem->count = -1; }
static inline void up_write(struct rw_semaphore *sem) { sem->count = 0; }
#endif

/* Someone is inside (for assertions). */
static inline bool rwsem_is_locked(const struct rw_semaphore *sem)
{
	return *(const volatile long *)&sem->count != 0;
}

#endif
