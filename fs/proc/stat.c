/* fs/proc/stat.c — /proc/stat in Linux's layout: CPU time by kind (all
 * CPUs, then each), interrupts, context switches, boot time, forks,
 * runnable tasks. */
#include <asm/io_apic.h>
#include <asm/irq.h>
#include <asm/percpu.h>
#include <zpk/cpumask.h>
#include <zpk/kernel_stat.h>
#include <zpk/loadavg.h>
#include <zpk/sched.h>
#include <zpk/sprintf.h>
#include <zpk/time.h>
#include "internal.h"

#define USER_HZ		100	/* /proc's clock ticks (sysconf _SC_CLK_TCK) */
#define NR_SOFTIRQS	10	/* Linux's, all 0 here: no softirqs */

static unsigned long long to_clock_t(u64 ns)
{
	return ns / (NSEC_PER_SEC / USER_HZ);
}

/* One cpu line: the ten kinds, in ns in cpustat, in the order Linux's
 * show_stat prints them (nice, iowait, irq, softirq, steal and guest
 * time stay 0: zpk has none of them). */
static void show_cpu(struct seq_file *m, const char *name, const u64 *cpustat)
{
	static const u8 order[NR_STATS] = {
		CPUTIME_USER, CPUTIME_NICE, CPUTIME_SYSTEM, CPUTIME_IDLE,
		CPUTIME_IOWAIT, CPUTIME_IRQ, CPUTIME_SOFTIRQ, CPUTIME_STEAL,
		CPUTIME_GUEST, CPUTIME_GUEST_NICE,
	};

	seq_puts(m, name);
	for (int i = 0; i < NR_STATS; i++)
		seq_printf(m, " %llu", to_clock_t(cpustat[order[i]]));
	seq_putc(m, '\n');
}

/* Interrupts that are no PIC line, as Linux's arch_irq_stat_cpu counts
 * them in intr's total: the local timer's ticks and the IPIs. */
static unsigned long long arch_irq_stat(int cpu)
{
	return per_cpu(apic_timer_irqs, cpu) + per_cpu(irq_call_count, cpu) +
	       per_cpu(irq_resched_count, cpu) +
	       per_cpu(irq_spurious_count, cpu);
}

/* Linux's show_stat: all CPUs, then each online one. procs_blocked
 * (tasks waiting for I/O) is 0: nothing here waits for a disk. */
static int stat_show(struct seq_file *m, struct task_struct *task)
{
	unsigned long long sum = 0;
	u64 boot_ns = ktime_get_real_ns() - ktime_get_ns();
	u64 all[NR_STATS];
	char name[8];
	int cpu;

	(void)task;
	for (int i = 0; i < NR_STATS; i++)
		all[i] = kcpustat_sum(i);
	show_cpu(m, "cpu ", all);
	for_each_online_cpu(cpu) {
		snprintf(name, sizeof(name), "cpu%d", cpu);
		show_cpu(m, name, per_cpu(cpustat, cpu));
		sum += arch_irq_stat(cpu);
	}
	for (int i = 0; i < NR_IRQS; i++)
		sum += irq_count[i];
	for (int i = 0; i < NR_IO_APIC_PINS; i++)
		sum += io_apic_irq_count[i];
	/* A line by its number: the 8259's, or the IO-APIC's GSI (the
	 * virtio disk's, 11 on QEMU); GSIs above 15 count in the total. */
	seq_printf(m, "intr %llu", sum);
	for (int i = 0; i < NR_IRQS; i++)
		seq_printf(m, " %lu", irq_count[i] + io_apic_irq_count[i]);
	seq_printf(m, "\nctxt %llu\nbtime %llu\nprocesses %lu\n"
		   "procs_running %u\nprocs_blocked 0\nsoftirq 0",
		   (unsigned long long)nr_context_switches(),
		   (unsigned long long)(boot_ns / NSEC_PER_SEC), total_forks,
		   nr_running());
	for (int i = 0; i < NR_SOFTIRQS; i++)
		seq_puts(m, " 0");
	seq_putc(m, '\n');
	return 0;
}

void proc_stat_init(void)
{
	proc_create("stat", 0444, stat_show, NULL);
}
