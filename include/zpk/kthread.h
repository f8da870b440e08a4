/* zpk/kthread.h — kernel threads that do one job on one CPU and end
 * (Linux's kthread_create_on_cpu and kthread_use_mm, and a join): what the
 * ktests use to run kernel code on several CPUs at once. */
#ifndef ZPK_KTHREAD_H
#define ZPK_KTHREAD_H

struct kthread;
struct mm_struct;

/* Starts fn(arg) in a new kernel thread, a child of current, bound to
 * cpu; NULL if out of memory or pids. */
struct kthread *kthread_run_on_cpu(int (*fn)(void *), void *arg, int cpu,
				   const char *name);
/* Waits until k's thread has ended, reaps it, and returns fn's value.
 * The caller is its creator; an idle task (a ktest) yields meanwhile. */
int kthread_join(struct kthread *k);
/* The calling kernel thread works in mm's address space (its faults,
 * its CR3), and leaves it (Linux's kthread_use_mm, kthread_unuse_mm).
 * The caller keeps mm alive meanwhile. */
void kthread_use_mm(struct mm_struct *mm);
void kthread_unuse_mm(void);

#endif
