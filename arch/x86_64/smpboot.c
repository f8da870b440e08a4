/* arch/x86_64/smpboot.c — starting and stopping the other CPUs: numbers
 * from the MADT, INIT-SIPI-SIPI through the trampoline, per-CPU set-up. */
#include <asm/apic.h>
#include <asm/io.h>
#include <asm/processor.h>
#include <asm/smp.h>
#include <asm/syscall.h>
#include <asm/traps.h>
#include <zpk/mmu.h>
#include <zpk/printk.h>
#include <zpk/sched.h>
#include <zpk/smp.h>
#include <zpk/string.h>
#include <zpk/time.h>
#include <zpk/vmstat.h>

struct pcpu pcpu_data[NR_CPUS];
struct cpumask cpu_possible_mask = { 1 }, cpu_online_mask = { 1 };
int nr_cpu_ids = 1;

extern const u8 trampoline_start[], trampoline_end[];
/* What an AP needs before it has a stack: secondary_startup_64
 * (boot/start64.asm) loads CR3 and RSP from here. */
u64 initial_cr3, initial_stack;
/* The CPU being started, and the boot CPU's CR0/CR4 it copies. */
static int smp_booting_cpu;
static u64 boot_cr0, boot_cr4;
static bool stopping;

void smp_prepare_boot_cpu(void)
{
	struct pcpu *c = &pcpu_data[0];
	u32 a, b, cx, d;

	cpuid(1, 0, &a, &b, &cx, &d);
	c->self = c;
	c->cpu_number = 0;
	/* LAB(smp) BEGIN task 1: where this CPU counts */
	c->vm_stat = &vm_cpu_stats[0];
	/* LAB(smp) END: */
	c->lapic_id = b >> 24;		/* the initial APIC id */
	c->current_task = &init_task;
	c->idle = &init_task;
	wrmsr(MSR_GS_BASE, (u64)c);
	call_function_init();
}

void register_lapic(u32 apicid)
{
	int cpu;

	if ((int)apicid == pcpu_data[0].lapic_id)
		return;
	if (nr_cpu_ids == NR_CPUS) {
		pr_warn("smp: APIC id %u ignored: zpk has NR_CPUS = %d\n",
			apicid, NR_CPUS);
		return;
	}
	cpu = nr_cpu_ids++;
	pcpu_data[cpu].lapic_id = apicid;
	cpumask_set_cpu(cpu, &cpu_possible_mask);
}

void cpu_init(void)
{
	gdt_init();
	load_current_idt();
	syscall_init();
}

/*
 * An AP's first C code, on its idle task's stack with init_pgd loaded
 * (secondary_startup_64): the boot CPU's control registers, then the
 * same per-CPU set-up the boot CPU had, then idle.
 */
void __noreturn start_secondary(void)
{
	int cpu = smp_booting_cpu;

	write_cr0(boot_cr0);
	write_cr4(boot_cr4);
	wrmsr(MSR_GS_BASE, (u64)&pcpu_data[cpu]);
	cpu_init();
	fpu_init_cpu();
	setup_local_APIC();
	setup_APIC_timer();
	cpumask_set_cpu(cpu, &cpu_online_mask);
	cpumask_set_cpu(cpu, &cpu_active_mask);	/* the scheduler's now */
	cpu_idle();
}

/* INIT, then two STARTUPs: the AP starts in real mode at vector << 12
 * (Intel SDM vol. 3, 8.4.4.1; Linux's wakeup_secondary_cpu_via_init). */
static void wakeup_secondary_cpu_via_init(u32 apicid)
{
	apic_icr_write(APIC_INT_LEVELTRIG | APIC_INT_ASSERT | APIC_DM_INIT,
		       apicid);
	udelay(10000);
	apic_icr_write(APIC_INT_LEVELTRIG | APIC_DM_INIT, apicid);
	for (int i = 0; i < 2; i++) {
		apic_icr_write(APIC_DM_STARTUP | (TRAMPOLINE_BASE >> 12),
			       apicid);
		udelay(200);
	}
}

/* Starts cpu and waits (5 s at most) until it is online. */
static int do_boot_cpu(int cpu)
{
	struct pcpu *c = &pcpu_data[cpu];
	struct task_struct *idle = idle_task_init(cpu);
	u64 t0;

	c->self = c;
	c->cpu_number = cpu;
	/* LAB(smp) BEGIN task 1: where this CPU counts */
	c->vm_stat = &vm_cpu_stats[cpu];
	/* LAB(smp) END: */
	c->current_task = idle;
	c->idle = idle;
	initial_stack = (u64)idle->stack + THREAD_SIZE;
	smp_booting_cpu = cpu;
	wakeup_secondary_cpu_via_init(c->lapic_id);
	t0 = ktime_get_ns();
	while (!cpumask_test_cpu(cpu, &cpu_online_mask))
		if (ktime_get_ns() - t0 > 5 * NSEC_PER_SEC) {
			pr_err("smp: CPU%d (APIC id %d) did not start\n", cpu,
			       c->lapic_id);
			return -1;
		}
	return 0;
}

void smp_init(void)
{
	memcpy(__va(TRAMPOLINE_BASE), trampoline_start,
	       trampoline_end - trampoline_start);
	initial_cr3 = read_cr3();
	boot_cr0 = read_cr0();
	boot_cr4 = read_cr4();
	for (int cpu = 1; cpu < nr_cpu_ids; cpu++)
		do_boot_cpu(cpu);
	pr_info("smp: Brought up 1 node, %d CPU%s\n", num_online_cpus(),
		num_online_cpus() > 1 ? "s" : "");
}

bool cpu_stop_requested(void)
{
	return READ_ONCE(stopping);
}

/* NMI context: this CPU takes nothing more, for good. */
void __noreturn stop_this_cpu(void)
{
	cpumask_clear_cpu(smp_processor_id(), &cpu_online_mask);
	for (;;)
		asm volatile("cli; hlt");
}

/* An NMI reaches a CPU even with its interrupts off (Linux sends
 * REBOOT_VECTOR first, then NMIs to the CPUs that did not answer). */
void smp_send_stop(void)
{
	if (num_online_cpus() == 1)
		return;
	WRITE_ONCE(stopping, true);
	apic_send_NMI_allbutself();
}
