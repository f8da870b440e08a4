/* arch/x86_64/apic.c — the local APIC of each CPU: enabling it, its timer
 * (calibrated against the PIT), EOI, IPIs, and the vectors it delivers. */
#include <asm/apic.h>
#include <asm/io.h>
#include <asm/irqflags.h>
#include <asm/percpu.h>
#include <zpk/atomic.h>
#include <zpk/mmu.h>
#include <zpk/printk.h>
#include <zpk/sched.h>
#include <zpk/smp.h>
#include <zpk/time.h>

#define MSR_IA32_APICBASE		0x1b
#define MSR_IA32_APICBASE_ENABLE	(1UL << 11)
#define MSR_IA32_APICBASE_BASE		0xfffff000UL

/* The registers, one page mapped uncached (each CPU sees its own APIC at
 * the same physical address). */
static volatile u32 *apic_regs;
unsigned long lapic_timer_period;

static u32 apic_read(u32 reg)
{
	return apic_regs[reg / 4];
}

static void apic_write(u32 reg, u32 v)
{
	apic_regs[reg / 4] = v;
}

u32 read_apic_id(void)
{
	return apic_read(APIC_ID) >> 24;
}

void ack_APIC_irq(void)
{
	apic_write(APIC_EOI, 0);
}

/*
 * Only the boot CPU listens to the 8259s: LINT0 in ExtINT mode passes
 * their interrupts through (virtual wire), and LINT1 carries the NMI
 * line. The other CPUs mask both, as Linux does.
 */
void setup_local_APIC(void)
{
	bool bsp = smp_processor_id() == 0;

	apic_write(APIC_TASKPRI, 0);		/* accept every vector */
	apic_write(APIC_SPIV, APIC_SPIV_APIC_ENABLED | SPURIOUS_APIC_VECTOR);
	apic_write(APIC_LVT0, bsp ? APIC_DM_EXTINT : APIC_LVT_MASKED);
	apic_write(APIC_LVT1, bsp ? APIC_DM_NMI : APIC_LVT_MASKED);
	apic_write(APIC_LVTERR, ERROR_APIC_VECTOR);
	apic_write(APIC_ESR, 0);		/* writes latch, then clear */
	apic_write(APIC_ESR, 0);
	ack_APIC_irq();				/* nothing left in service */
}

/* How far the timer has counted down from its initial 0xffffffff. */
static u64 apic_timer_elapsed(void)
{
	return 0xffffffff - apic_read(APIC_TMCCT);
}

/*
 * The timer counts down at the bus clock / 16: how far it goes in a ms
 * of the PIT's channel 2 gives the count for one tick (Linux's
 * calibrate_APIC_clock uses the PIT's tick the same way). Under QEMU
 * both run on its virtual clock, so the figure is exact there.
 */
static void calibrate_APIC_clock(void)
{
	unsigned long hz;

	apic_write(APIC_TDCR, APIC_TDR_DIV_16);
	apic_write(APIC_LVTT, APIC_LVT_MASKED | LOCAL_TIMER_VECTOR);
	apic_write(APIC_TMICT, 0xffffffff);
	lapic_timer_period = pit_calibrate(apic_timer_elapsed) * 1000 / HZ;
	apic_write(APIC_TMICT, 0);
	if (!lapic_timer_period) {
		pr_warn("APIC timer: the PIT did not count: 1 GHz bus assumed\n");
		lapic_timer_period = 1000000000 / 16 / HZ;
	}
	hz = lapic_timer_period * 16 * HZ;
	pr_info("APIC timer: bus clock %lu.%03lu MHz, %lu counts per tick "
		"(calibrated against the PIT)\n", hz / 1000000,
		hz / 1000 % 1000, lapic_timer_period);
}

void setup_APIC_timer(void)
{
	apic_write(APIC_TDCR, APIC_TDR_DIV_16);
	apic_write(APIC_LVTT, APIC_LVT_TIMER_PERIODIC | LOCAL_TIMER_VECTOR);
	apic_write(APIC_TMICT, lapic_timer_period);
}

void apic_init(void)
{
	u64 base = rdmsr(MSR_IA32_APICBASE);

	wrmsr(MSR_IA32_APICBASE, base | MSR_IA32_APICBASE_ENABLE);
	apic_regs = ioremap(base & MSR_IA32_APICBASE_BASE, PAGE_SIZE);
	pr_info("APIC: local APIC at %#lx, boot CPU's id %u, version %#x\n",
		(unsigned long)(base & MSR_IA32_APICBASE_BASE), read_apic_id(),
		apic_read(APIC_LVR) & 0xff);
	setup_local_APIC();
	calibrate_APIC_clock();
	setup_APIC_timer();
}

static void apic_wait_icr_idle(void)
{
	while (apic_read(APIC_ICR) & APIC_ICR_BUSY)
		cpu_relax();
}

/* Interrupts stay off between the two halves: an interrupt handler that
 * sent an IPI in between would change the destination under us. */
void apic_icr_write(u32 low, u32 apicid)
{
	unsigned long flags;

	local_irq_save(flags);
	apic_write(APIC_ICR2, apicid << 24);
	apic_write(APIC_ICR, low);
	apic_wait_icr_idle();
	local_irq_restore(flags);
}

void apic_send_IPI(int cpu, u32 vector)
{
	apic_icr_write(vector, per_cpu(lapic_id, cpu));
}

void apic_send_NMI_allbutself(void)
{
	apic_icr_write(APIC_DEST_ALLBUT | APIC_DM_NMI, 0);
}

/* The APIC found a bad vector or a send that failed (Linux's
 * spurious_interrupt/error_interrupt report the same bits). */
static void error_interrupt(void)
{
	u32 esr;

	apic_write(APIC_ESR, 0);
	esr = apic_read(APIC_ESR);
	ack_APIC_irq();
	pr_warn("APIC error on CPU%d: %02x\n", smp_processor_id(), esr);
}

/*
 * Vectors from the local APIC itself; each acknowledges before its
 * handler runs, as do_irq does for the 8259's. A spurious interrupt is
 * never in service, so it gets no EOI.
 */
bool do_system_vector(struct pt_regs *regs)
{
	struct pcpu *c = this_cpu_ptr();

	switch (regs->vector) {
	case LOCAL_TIMER_VECTOR:
		ack_APIC_irq();
		c->apic_timer_irqs++;
		tick_handle_periodic(user_mode(regs));
		return true;
	case CALL_FUNCTION_VECTOR:
		ack_APIC_irq();
		c->irq_call_count++;
		generic_smp_call_function_interrupt();
		return true;
	case RESCHEDULE_VECTOR:
		ack_APIC_irq();
		c->irq_resched_count++;
		scheduler_ipi();
		return true;
	case ERROR_APIC_VECTOR:
		error_interrupt();
		return true;
	case SPURIOUS_APIC_VECTOR:
		c->irq_spurious_count++;
		return true;
	}
	return false;
}
