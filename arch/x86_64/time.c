/* arch/x86_64/time.c — the clocks: each CPU's local APIC timer ticks at HZ
 * (apic.c), the TSC (calibrated against the PIT) counts ns, the RTC gives
 * the date. */
#include <asm/io.h>
#include <asm/percpu.h>
#include <zpk/atomic.h>
#include <asm/irq.h>
#include <zpk/kernel_stat.h>
#include <zpk/loadavg.h>
#include <zpk/printk.h>
#include <zpk/sched.h>
#include <zpk/string.h>
#include <zpk/time.h>
#include <zpk/timer.h>

#define PIT_TICK_RATE	1193182		/* Hz, the PIT's input clock */
#define PIT_CH2		0x42
#define PIT_MODE	0x43
#define PIT_GATE	0x61		/* bit 0: ch 2 gate, bit 5: ch 2 out */
#define CAL_MS		10
#define CMOS_INDEX	0x70
#define CMOS_DATA	0x71

volatile u64 jiffies;
unsigned long tsc_khz;
static u64 tsc_base;		/* TSC at time_init: ns 0 */
static u64 ns_mult;		/* ns per cycle, << 32 */
static u64 real_base_ns;	/* wall clock at monotonic 0 */

/* Every CPU's local timer interrupt, at HZ; user: it came from user
 * mode. One CPU keeps jiffies (Linux's tick_do_timer_cpu) and runs the
 * kernel timers: CPU 0, which never goes offline. jiffies count the
 * ticks the TSC's clock says are due, as Linux's tick_do_update_jiffies64
 * does: a tick or more may be lost (a virtual CPU the host did not run),
 * and late ones may then come in a burst, which must not run jiffies
 * ahead of the clock; so times() and the clocks agree. */
void tick_handle_periodic(bool user)
{
	if (smp_processor_id() == 0) {
		u64 due = ktime_get_ns() / TICK_NSEC;

		if (due > jiffies)
			jiffies = due;
		calc_global_load_tick();
		run_timers();
	}
	update_process_times(user);
}

/* jiffies as any CPU should read them (Linux's get_jiffies_64): CPU 0's
 * tick may be late (its virtual CPU not run by the host) while the tick
 * of another CPU, which wakes the timed sleepers that slept there, is
 * not; the TSC's clock says how many ticks are due. A read only: CPU 0
 * alone writes jiffies. */
u64 get_jiffies_64(void)
{
	u64 due = ktime_get_ns() / TICK_NSEC, j = jiffies;

	return due > j ? due : j;
}

/* Busy-waits at least us microseconds, by the TSC (Linux's udelay). */
void udelay(unsigned long us)
{
	u64 t0 = rdtsc(), cycles = (u64)tsc_khz * us / 1000;

	while (rdtsc() - t0 < cycles)
		cpu_relax();
}

/*
 * One CAL_MS window of PIT channel 2, counting down in mode 0 (its output
 * rises at zero, seen in port 0x61 bit 5), timed with read(). The count
 * starts between two samples and is seen to end between two others, so
 * the window lies between the inner and the outer pair: their midpoint
 * is returned, and in *err their difference (a virtual CPU descheduled
 * right there widens it). 0 if the PIT never ran out (the loop is
 * bounded so that a missing PIT cannot hang the boot).
 */
static u64 pit_window(u64 (*read)(void), u64 *err)
{
	u16 latch = PIT_TICK_RATE / (1000 / CAL_MS);
	u64 before, start, last, after;
	long loops = 0;

	outb(PIT_GATE, (inb(PIT_GATE) & ~0x02) | 0x01);	/* gate on, no beep */
	outb(PIT_MODE, 0xb0);		/* ch 2, lo/hi byte, mode 0 */
	outb(PIT_CH2, latch & 0xff);
	before = read();
	outb(PIT_CH2, latch >> 8);	/* the count starts here */
	start = read();
	do
		last = read();
	while (!(inb(PIT_GATE) & 0x20) && ++loops < 50000000);
	after = read();
	outb(PIT_GATE, inb(PIT_GATE) & ~0x01);
	*err = (after - before) - (last - start);
	return loops < 50000000 ? ((after - before) + (last - start)) / 2 : 0;
}

/* As Linux's pit_calibrate_tsc: of three windows, the one timed most
 * tightly; how far read() moves per ms. */
u64 pit_calibrate(u64 (*read)(void))
{
	u64 best = 0, best_err = ~0ULL, d, err;

	for (int i = 0; i < 3; i++) {
		d = pit_window(read, &err);
		if (d && err < best_err) {
			best = d;
			best_err = err;
		}
	}
	return best / CAL_MS;
}

static u64 read_tsc(void)
{
	return rdtsc();
}

u64 ktime_get_ns(void)
{
	u64 delta = rdtsc() - tsc_base;

	/* 128-bit product: no overflow for centuries of cycles. */
	return ((unsigned __int128)delta * ns_mult) >> 32;
}

u64 ktime_get_real_ns(void)
{
	return real_base_ns + ktime_get_ns();
}

u64 mktime64(unsigned int year, unsigned int mon, unsigned int day,
	     unsigned int hour, unsigned int min, unsigned int sec)
{
	/* Gauss's trick: March is month 1, so Feb 29 ends the year. */
	if ((int)(mon -= 2) <= 0) {
		mon += 12;
		year -= 1;
	}
	return ((((u64)(year / 4 - year / 100 + year / 400 +
			367 * mon / 12 + day) + year * 365 - 719499
		  ) * 24 + hour) * 60 + min) * 60 + sec;
}

static u8 cmos_read(u8 reg)
{
	outb(CMOS_INDEX, reg);
	return inb(CMOS_DATA);
}

static unsigned int bcd2bin(u8 v)
{
	return (v & 0x0f) + (v >> 4) * 10;
}

/* Reads the date twice, outside an update, until both reads agree. */
static u64 read_rtc_seconds(void)
{
	u8 r[7], again[7];
	unsigned int v[7];
	u8 regs[7] = { 0x00, 0x02, 0x04, 0x07, 0x08, 0x09, 0x32 };
	u8 status_b;

	do {
		while (cmos_read(0x0a) & 0x80)	/* update in progress */
			;
		for (int i = 0; i < 7; i++)
			r[i] = cmos_read(regs[i]);
		for (int i = 0; i < 7; i++)
			again[i] = cmos_read(regs[i]);
	} while (memcmp(r, again, sizeof(r)));
	status_b = cmos_read(0x0b);
	for (int i = 0; i < 7; i++)
		v[i] = (status_b & 0x04) ? r[i] & 0x7f : bcd2bin(r[i] & 0x7f);
	if (!(status_b & 0x02) && (r[2] & 0x80))	/* 12-hour, PM */
		v[2] = (v[2] % 12) + 12;
	else if (!(status_b & 0x02))
		v[2] %= 12;
	if (v[6] < 19 || v[6] > 30)	/* no century register */
		v[6] = 20;
	return mktime64(v[6] * 100 + v[5], v[4], v[3], v[2], v[1], v[0]);
}

void time_init(void)
{
	tsc_khz = pit_calibrate(read_tsc);
	if (!tsc_khz) {
		pr_warn("zpk: PIT did not count; assuming a 1 GHz TSC\n");
		tsc_khz = 1000000;
	}
	ns_mult = (NSEC_PER_MSEC << 32) / tsc_khz;
	tsc_base = rdtsc();
	pr_info("zpk: TSC %lu.%lu MHz (calibrated against the PIT)\n",
		tsc_khz / 1000, tsc_khz % 1000 / 100);
	real_base_ns = read_rtc_seconds() * NSEC_PER_SEC - ktime_get_ns();
}
