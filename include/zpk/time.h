/* zpk/time.h — the tick (HZ, jiffies), the TSC clock and the wall clock,
 * and the Linux types and clock ids of the time system calls. */
#ifndef ZPK_TIME_H
#define ZPK_TIME_H

#include <zpk/compiler.h>
#include <zpk/types.h>

#define HZ		100			/* timer interrupts per second */
#define NSEC_PER_USEC	1000ULL
#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL
#define TICK_NSEC	(NSEC_PER_SEC / HZ)

#define CLOCK_REALTIME		0
#define CLOCK_MONOTONIC		1
#define CLOCK_MONOTONIC_RAW	4
#define CLOCK_REALTIME_COARSE	5
#define CLOCK_MONOTONIC_COARSE	6
#define CLOCK_BOOTTIME		7

struct __kernel_timespec {
	s64 tv_sec;
	long tv_nsec;
};
struct __kernel_old_timeval {
	long tv_sec;
	long tv_usec;
};
struct timezone {
	int tz_minuteswest;
	int tz_dsttime;
};

/* Timer ticks since the PIT was started; only the timer IRQ writes it. */
extern volatile u64 jiffies;
/* TSC frequency in kHz, measured against the PIT by time_init. */
extern unsigned long tsc_khz;

/* PIT at HZ on IRQ 0, TSC calibration, RTC read: once, at boot. */
void time_init(void);
/* Monotonic nanoseconds since time_init, from the TSC. */
u64 ktime_get_ns(void);
/* Wall clock: nanoseconds since 1970-01-01 UTC (RTC at boot + monotonic). */
u64 ktime_get_real_ns(void);
/* Each timer interrupt, after jiffies moved: the periodic work. */
void timer_tick(void);
/* A user timespec as ns (Linux's get_timespec64 and its check): 0,
 * -EFAULT, or -EINVAL for a negative or unnormalised one; seconds past
 * 2^63 ns are cut there ("forever"). */
long timespec_from_user(const struct __kernel_timespec __user *u, u64 *ns);
/* Seconds since 1970 for a UTC date (mon 1..12), as Linux's mktime64. */
u64 mktime64(unsigned int year, unsigned int mon, unsigned int day,
	     unsigned int hour, unsigned int min, unsigned int sec);

#endif
