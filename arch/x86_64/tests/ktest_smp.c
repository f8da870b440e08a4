/* arch/x86_64/tests/ktest_smp.c — ktests of the CPUs: every CPU the MADT lists
 * came up with its own GS block, ticks, and answers function-call IPIs. */
#include <asm/apic.h>
#include <asm/io.h>
#include <asm/smp.h>
#include <zpk/atomic.h>
#include <zpk/errno.h>
#include <zpk/ktest.h>
#include <zpk/printk.h>
#include <zpk/rwsem.h>
#include <zpk/sched.h>
#include <zpk/smp.h>
#include <zpk/spinlock.h>
#include <zpk/string.h>
#include <zpk/time.h>

KTEST(smp, every_cpu_online)
{
	KEXPECT_EQ(num_online_cpus(), nr_cpu_ids);
	KEXPECT_EQ(cpu_online_mask.bits, cpu_possible_mask.bits);
	KEXPECT_EQ(smp_processor_id(), 0);
	KEXPECT_EQ((long)per_cpu(lapic_id, 0), (long)read_apic_id());
}

/* What each CPU says about itself from inside the IPI handler. */
struct cpu_report {
	int cpu;
	u32 apic_id;
	struct pcpu *self;
	struct task_struct *task;
	bool irqs_off;
	atomic_t calls;
};
static struct cpu_report reports[NR_CPUS];

static void report_self(void *info)
{
	struct cpu_report *r = &reports[smp_processor_id()];

	(void)info;
	r->cpu = smp_processor_id();
	r->apic_id = read_apic_id();
	r->self = this_cpu_ptr();
	r->task = current;
	r->irqs_off = irqs_disabled();
	atomic_inc(&r->calls);
}

/* Each CPU's GS points at its own block, whose cpu_number and APIC id
 * match the hardware, and current there is the CPU's idle task. */
KTEST(smp, on_each_cpu_runs_once_everywhere)
{
	int cpu;

	memset(reports, 0, sizeof(reports));
	on_each_cpu(report_self, NULL, true);
	for_each_possible_cpu(cpu) {
		struct cpu_report *r = &reports[cpu];

		KEXPECT_EQ(atomic_read(&r->calls), 1);
		KEXPECT_EQ(r->cpu, cpu);
		KEXPECT_EQ((long)r->apic_id, (long)per_cpu(lapic_id, cpu));
		KEXPECT_TRUE(r->self == &pcpu_data[cpu]);
		KEXPECT_TRUE(r->irqs_off);
		if (cpu)
			KEXPECT_TRUE(r->task == per_cpu(idle, cpu));
	}
	KEXPECT_TRUE(reports[0].task == current);
}

static void add_cpu_bit(void *info)
{
	__atomic_fetch_or((unsigned long *)info, 1UL << smp_processor_id(),
			  __ATOMIC_SEQ_CST);
}

/* A single target, waited for; a CPU that is not online is refused. */
KTEST(smp, call_function_single)
{
	unsigned long seen = 0;
	int cpu = nr_cpu_ids - 1;

	KEXPECT_EQ(smp_call_function_single(cpu, add_cpu_bit, &seen, true), 0);
	KEXPECT_EQ(seen, 1UL << cpu);
	KEXPECT_EQ(smp_call_function_single(NR_CPUS, add_cpu_bit, &seen,
					    true), -ENXIO);
	if (nr_cpu_ids < NR_CPUS)
		KEXPECT_EQ(smp_call_function_single(nr_cpu_ids, add_cpu_bit,
						    &seen, true), -ENXIO);
}

/* Without wait the requests still all run: on_each_cpu waits for them
 * (and for the previous use of each request) before it returns. */
KTEST(smp, call_function_nowait)
{
	unsigned long seen = 0;

	for (int i = 0; i < 50; i++)
		smp_call_function(add_cpu_bit, &seen, false);
	on_each_cpu(add_cpu_bit, &seen, true);
	KEXPECT_EQ(seen, cpu_online_mask.bits);
}

/* Every CPU's local APIC timer ticks, not only CPU 0's: two ticks each
 * within 5 s of TSC time (ticks come late on a busy host). */
KTEST(smp, every_cpu_ticks)
{
	unsigned long before[NR_CPUS];
	u64 deadline = rdtsc() + (u64)tsc_khz * 5000;
	int cpu, ticking;

	for_each_online_cpu(cpu)
		before[cpu] = per_cpu(apic_timer_irqs, cpu);
	do {
		ticking = 0;
		for_each_online_cpu(cpu)
			ticking += per_cpu(apic_timer_irqs, cpu) >= before[cpu] + 2;
	} while (ticking < num_online_cpus() && rdtsc() < deadline);
	KEXPECT_EQ(ticking, num_online_cpus());
}

/* Many CPUs at once on one lock: no increment is lost. */
static DEFINE_SPINLOCK(counter_lock);
static unsigned long counter;

static void count_under_lock(void *info)
{
	(void)info;
	for (int i = 0; i < 10000; i++) {
		spin_lock(&counter_lock);
		counter++;
		spin_unlock(&counter_lock);
	}
}

KTEST(spinlock, no_lost_update)
{
	counter = 0;
	on_each_cpu(count_under_lock, NULL, true);
	KEXPECT_EQ(counter, 10000UL * num_online_cpus());
	KEXPECT_FALSE(spin_is_locked(&counter_lock));
	KEXPECT_EQ(spin_locks_held(), 0);
}

KTEST(spinlock, trylock)
{
	DEFINE_SPINLOCK(l);

	KEXPECT_TRUE(spin_trylock(&l));
	KEXPECT_EQ(spin_locks_held(), 1);
	KEXPECT_FALSE(spin_trylock(&l));
	spin_unlock(&l);
	KEXPECT_EQ(spin_locks_held(), 0);
	KEXPECT_FALSE(spin_is_locked(&l));
}

KTEST(spinlock, irqsave_restores)
{
	DEFINE_SPINLOCK(l);
	unsigned long flags;

	KEXPECT_FALSE(irqs_disabled());
	spin_lock_irqsave(&l, flags);
	KEXPECT_TRUE(irqs_disabled());
	spin_unlock_irqrestore(&l, flags);
	KEXPECT_FALSE(irqs_disabled());
}

/* The debug checks report with the lock's name and a backtrace. */
KTEST(spinlock, unlock_of_free_lock_reported)
{
	DEFINE_SPINLOCK(never_taken);
	char buf[1024];

	printk_capture_start(buf, sizeof(buf));
	spin_unlock(&never_taken);
	printk_capture_stop();
	KEXPECT_STRSTR(buf, "BUG: spinlock already unlocked on CPU#0");
	KEXPECT_STRSTR(buf, "lock: never_taken");
	KEXPECT_STRSTR(buf, "Call Trace:");
	KEXPECT_EQ(spin_locks_held(), 0);
}

/* A sleeping lock taken with a spinlock held: reported with a backtrace
 * (Linux's might_sleep), even though this one is free and never sleeps. */
KTEST(spinlock, sleeping_under_a_spinlock_reported)
{
	DEFINE_SPINLOCK(held);
	DECLARE_RWSEM(sem);
	char buf[2048];

	spin_lock(&held);
	printk_capture_start(buf, sizeof(buf));
	down_read(&sem);
	printk_capture_stop();
	up_read(&sem);
	spin_unlock(&held);
	KEXPECT_STRSTR(buf, "BUG: sleeping function called from invalid "
			    "context at kernel/rwsem.c");
	KEXPECT_STRSTR(buf, "in_atomic(): 1, irqs_disabled(): 0");
	KEXPECT_STRSTR(buf, "Call Trace:");
	KEXPECT_STRSTR(buf, "down_read+0x");
	KEXPECT_EQ(spin_locks_held(), 0);
}

static DEFINE_SPINLOCK(cross_lock);

static void unlock_cross_lock(void *info)
{
	(void)info;
	spin_unlock(&cross_lock);
}

/* Taken on CPU 0, released on the last CPU: reported, and the lock and
 * CPU 0's count of held locks end up right anyway. */
KTEST(spinlock, unlock_on_other_cpu_reported)
{
	char buf[1024];

	if (num_online_cpus() == 1)
		return;
	spin_lock(&cross_lock);
	printk_capture_start(buf, sizeof(buf));
	smp_call_function_single(nr_cpu_ids - 1, unlock_cross_lock, NULL,
				 true);
	printk_capture_stop();
	KEXPECT_STRSTR(buf, "BUG: spinlock wrong CPU on CPU#");
	KEXPECT_STRSTR(buf, ".owner_cpu: 0");
	KEXPECT_FALSE(spin_is_locked(&cross_lock));
	KEXPECT_EQ(spin_locks_held(), 0);
}
