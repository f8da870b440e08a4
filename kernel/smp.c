/* kernel/smp.c — running a function on other CPUs (Linux's kernel/smp.c):
 * requests queue up per CPU, an IPI makes that CPU run them. */
#include <asm/apic.h>
#include <asm/irqflags.h>
#include <zpk/atomic.h>
#include <zpk/bug.h>
#include <zpk/errno.h>
#include <zpk/printk.h>
#include <zpk/smp.h>
#include <zpk/spinlock.h>

#define CSD_FLAG_LOCK	1	/* the request is queued or running */

/* Requests waiting for one CPU, in the order they came. */
struct call_queue {
	spinlock_t lock;	/* protects list; interrupts off (the IPI
				 * handler takes it) */
	struct list_head list;	/* of struct call_single_data */
} __aligned(64);

static struct call_queue call_single_queue[NR_CPUS];

/*
 * Each sender's requests, one per target (Linux's cfd_data):
 * cfd_data[sender][target]. Only the sender fills its row, from process
 * context, so a request is reused only after its previous run finished.
 */
static struct call_single_data cfd_data[NR_CPUS][NR_CPUS];

/* Boot, before any IPI: every queue empty. */
void call_function_init(void)
{
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		spin_lock_init(&call_single_queue[cpu].lock);
		INIT_LIST_HEAD(&call_single_queue[cpu].list);
	}
}

static void csd_lock_wait(struct call_single_data *csd)
{
	while (__atomic_load_n(&csd->flags, __ATOMIC_ACQUIRE) & CSD_FLAG_LOCK)
		cpu_relax();
}

/* Marks csd free again, after its function has run. */
static void csd_unlock(struct call_single_data *csd)
{
	__atomic_store_n(&csd->flags, 0, __ATOMIC_RELEASE);
}

/* Queues csd for cpu; true if the queue was empty, so an IPI is due (a
 * non-empty queue already has one on its way). */
static bool csd_queue(int cpu, struct call_single_data *csd)
{
	struct call_queue *q = &call_single_queue[cpu];
	unsigned long flags;
	bool first;

	spin_lock_irqsave(&q->lock, flags);
	first = list_empty(&q->list);
	list_add_tail(&csd->list, &q->list);
	spin_unlock_irqrestore(&q->lock, flags);
	return first;
}

/* The next request for this CPU, off its queue, or NULL. */
static struct call_single_data *csd_dequeue(int cpu)
{
	struct call_queue *q = &call_single_queue[cpu];
	struct call_single_data *csd = NULL;

	spin_lock(&q->lock);
	if (!list_empty(&q->list)) {
		csd = list_first_entry(&q->list, struct call_single_data,
				       list);
		list_del(&csd->list);
	}
	spin_unlock(&q->lock);
	return csd;
}

/* Interrupt context, interrupts off. */
void generic_smp_call_function_interrupt(void)
{
	int cpu = smp_processor_id();
	struct call_single_data *csd;

	while ((csd = csd_dequeue(cpu))) {
		csd->func(csd->info);
		csd_unlock(csd);
	}
}

void smp_call_function_many(const struct cpumask *mask, smp_call_func_t func,
			    void *info, bool wait)
{
	int me = smp_processor_id(), cpu;

	if (irqs_disabled() && num_online_cpus() > 1)
		pr_warn("smp_call_function_many from CPU%d with interrupts "
			"off: may deadlock\n", me);
	for_each_online_cpu(cpu) {
		struct call_single_data *csd = &cfd_data[me][cpu];

		if (cpu == me || !cpumask_test_cpu(cpu, mask))
			continue;
		csd_lock_wait(csd);
		csd->func = func;
		csd->info = info;
		csd->flags = CSD_FLAG_LOCK;
		if (csd_queue(cpu, csd))
			apic_send_IPI(cpu, CALL_FUNCTION_VECTOR);
	}
	if (!wait)
		return;
	for_each_online_cpu(cpu)
		if (cpu != me && cpumask_test_cpu(cpu, mask))
			csd_lock_wait(&cfd_data[me][cpu]);
}

void smp_call_function(smp_call_func_t func, void *info, bool wait)
{
	smp_call_function_many(&cpu_online_mask, func, info, wait);
}

int smp_call_function_single(int cpu, smp_call_func_t func, void *info,
			     bool wait)
{
	struct cpumask one = { 1UL << cpu };
	unsigned long flags;

	if (cpu < 0 || cpu >= NR_CPUS || !cpumask_test_cpu(cpu,
							   &cpu_online_mask))
		return -ENXIO;
	if (cpu == smp_processor_id()) {
		local_irq_save(flags);
		func(info);
		local_irq_restore(flags);
		return 0;
	}
	smp_call_function_many(&one, func, info, wait);
	return 0;
}

void on_each_cpu(smp_call_func_t func, void *info, bool wait)
{
	unsigned long flags;

	smp_call_function(func, info, wait);
	local_irq_save(flags);
	func(info);
	local_irq_restore(flags);
}
