/* zpk/smp_lock.h — the big kernel lock (Linux's lock_kernel, 2.0 to
 * 2.6.39): one lock around the parts of the kernel that have none of their
 * own, dropped while its holder sleeps. docs/smp.md lists what it covers:
 * among them signals, the page cache (ramfs's pages, so a file VMA's
 * fault takes it, inside the mmap_lock) and the file tables. It is the
 * outermost lock: every other may be taken under it; it may be taken
 * under a sleeping lock (mmap_lock), never under a spinlock. */
#ifndef ZPK_SMP_LOCK_H
#define ZPK_SMP_LOCK_H

#include <zpk/types.h>

struct task_struct;

/*
 * Takes the big kernel lock for current; recursive (current->lock_depth
 * counts the levels). Process context with interrupts on, and never with
 * a spinlock held: a holder may sleep, and schedule() lets the lock go
 * until the holder runs again, so code under it is atomic only between
 * two sleeps, as all of zpk was on one CPU.
 */
#ifndef HOST_TEST
void lock_kernel(void);
void unlock_kernel(void);
/* True if current holds it. */
bool kernel_locked(void);
#else	/* host tests are single-threaded */
static inline void lock_kernel(void) { }
static inline void unlock_kernel(void) { }
#endif

/* schedule(): let the lock go for a sleeping holder, and take it back
 * when it runs again (its depth is kept meanwhile). */
void release_kernel_lock(struct task_struct *task);
void reacquire_kernel_lock(struct task_struct *task);

#endif
