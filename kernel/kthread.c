/* kernel/kthread.c — kernel threads that do one job on one CPU and end
 * (Linux's kthread_create_on_cpu, kthread_use_mm, and a join), for the
 * ktests that run kernel code on several CPUs at once. */
#include <asm/irqflags.h>
#include <asm/tlbflush.h>
#include <zpk/kthread.h>
#include <zpk/sched.h>
#include <zpk/slab.h>
#include <zpk/smp_lock.h>

struct kthread {
	int (*fn)(void *);
	void *arg;
	int cpu;
	int ret;			/* fn's value, once it returned */
	struct task_struct *task;
};

/* The thread: on its CPU first (it may have started elsewhere), then the
 * job, then the end: a zombie, which kthread_join reaps. */
static int kthread_main(void *data)
{
	struct kthread *k = data;
	struct cpumask one = { 1UL << k->cpu };

	set_cpus_allowed_ptr(current, &one);
	schedule();
	k->ret = k->fn(k->arg);
	lock_kernel();
	do_exit(0);
}

struct kthread *kthread_run_on_cpu(int (*fn)(void *), void *arg, int cpu,
				   const char *name)
{
	struct kthread *k = kzalloc(sizeof(*k), GFP_KERNEL);
	int pid;

	if (!k)
		return NULL;
	k->fn = fn;
	k->arg = arg;
	k->cpu = cpu;
	lock_kernel();		/* the task list */
	pid = kernel_thread(kthread_main, k, name);
	k->task = pid > 0 ? find_task_by_pid(pid) : NULL;
	unlock_kernel();
	if (!k->task) {
		kfree(k);
		return NULL;
	}
	return k;
}

int kthread_join(struct kthread *k)
{
	int ret;

	while (READ_ONCE(k->task->state) != EXIT_ZOMBIE)
		schedule();
	lock_kernel();
	k->task->state = EXIT_DEAD;
	release_task(k->task);
	unlock_kernel();
	ret = k->ret;
	kfree(k);
	return ret;
}

/* Interrupts off, so that a flush IPI sees both or neither. */
void kthread_use_mm(struct mm_struct *mm)
{
	local_irq_disable();
	current->mm = mm;
	switch_mm(mm);
	local_irq_enable();
}

void kthread_unuse_mm(void)
{
	local_irq_disable();
	switch_mm(NULL);
	current->mm = NULL;
	local_irq_enable();
}
