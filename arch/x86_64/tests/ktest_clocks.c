/* arch/x86_64/tests/ktest_clocks.c — ktests of device IRQs and the clocks:
 * ticks arrive, the TSC agrees with them loosely, the RTC date is sane. */
#include <asm/io.h>
#include <asm/irq.h>
#include <asm/percpu.h>
#include <zpk/atomic.h>
#include <zpk/errno.h>
#include <zpk/ktest.h>
#include <zpk/printk.h>
#include <zpk/string.h>
#include <zpk/time.h>

/* Spins until jiffies reaches target or about 5 s of TSC time pass, so a
 * dead timer fails the test instead of hanging it. */
static bool wait_for_jiffies(u64 target)
{
	u64 deadline = rdtsc() + (u64)tsc_khz * 5000;

	while (jiffies < target)
		if (rdtsc() > deadline)
			return false;
	return true;
}

KTEST(time, interrupts_are_on)
{
	KEXPECT_FALSE(irqs_disabled());
}

/* CPU 0's local APIC timer drives jiffies: they move only on its tick,
 * which catches up ticks the host lost (tick_handle_periodic), so three
 * jiffies take at least one interrupt, not always three. */
KTEST(time, jiffies_advance)
{
	u64 j0 = jiffies;
	unsigned long ticks0 = READ_ONCE(per_cpu(apic_timer_irqs, 0));

	KEXPECT_TRUE(wait_for_jiffies(j0 + 3));
	KEXPECT_TRUE(jiffies >= j0 + 3);
	KEXPECT_TRUE(READ_ONCE(per_cpu(apic_timer_irqs, 0)) > ticks0);
}

KTEST(time, ktime_is_monotonic)
{
	u64 prev = ktime_get_ns(), now;
	bool ok = true;

	for (int i = 0; i < 10000; i++) {
		now = ktime_get_ns();
		if (now < prev)
			ok = false;
		prev = now;
	}
	KEXPECT_TRUE(ok);
	KEXPECT_TRUE(ktime_get_ns() > prev);
}

static u64 off_by(u64 permille)
{
	return permille > 1000 ? permille - 1000 : 1000 - permille;
}

/*
 * 5 ticks should take 50 ms of TSC time.  Under TCG on a busy host ticks
 * can be late or lost, so the ratio is checked loosely, best of 3 tries.
 */
KTEST(time, ktime_agrees_with_jiffies)
{
	u64 best_permille = 0;

	for (int try = 0; try < 3; try++) {
		u64 j0, t0, ticks, ns, permille;

		if (!wait_for_jiffies(jiffies + 1))	/* start on a tick */
			break;
		j0 = jiffies;
		t0 = ktime_get_ns();
		if (!wait_for_jiffies(j0 + 5))
			break;
		ns = ktime_get_ns() - t0;
		ticks = jiffies - j0;
		permille = ns * 1000 / (ticks * TICK_NSEC);
		if (!best_permille || off_by(permille) < off_by(best_permille))
			best_permille = permille;
	}
	KEXPECT_TRUE(best_permille >= 300 && best_permille <= 3000);
}

KTEST(time, tsc_frequency_plausible)
{
	KEXPECT_TRUE(tsc_khz >= 100000 && tsc_khz <= 10000000);
}

KTEST(time, rtc_after_2020)
{
	u64 sec = ktime_get_real_ns() / NSEC_PER_SEC;

	KEXPECT_EQ(mktime64(2020, 1, 1, 0, 0, 0), 1577836800);
	KEXPECT_EQ(mktime64(2000, 3, 1, 12, 0, 0), 951912000);
	KEXPECT_TRUE(sec > 1577836800);
	KEXPECT_TRUE(sec < 4102444800ULL);	/* 2100-01-01 */
}

static int irq5_hits;
static u64 irq5_vector;

static void irq5_handler(struct pt_regs *regs)
{
	irq5_hits++;
	irq5_vector = regs->vector;
}

/* A software int to an IRQ vector takes the same path a device would. */
KTEST(irq, handler_called_with_its_vector)
{
	KEXPECT_EQ(request_irq(5, irq5_handler), 0);
	KEXPECT_EQ(request_irq(5, irq5_handler), -EBUSY);
	asm volatile("int $37");
	free_irq(5);
	KEXPECT_EQ(irq5_hits, 1);
	KEXPECT_EQ(irq5_vector, 37);
	KEXPECT_EQ(request_irq(16, irq5_handler), -EINVAL);
}

KTEST(irq, unhandled_irq_is_reported)
{
	char buf[256];

	printk_capture_start(buf, sizeof(buf));
	asm volatile("int $38");
	printk_capture_stop();
	KEXPECT_STRSTR(buf, "unexpected interrupt 38");
}

/* No ISR bit is set for a software int 39: it looks spurious. */
KTEST(irq, spurious_irq7_ignored)
{
	unsigned long before = irq_spurious_count;
	char buf[256];

	printk_capture_start(buf, sizeof(buf));
	asm volatile("int $39");
	printk_capture_stop();
	KEXPECT_EQ(irq_spurious_count, before + 1);
	KEXPECT_EQ(strlen(buf), 0);
}
