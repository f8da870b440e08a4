/* zpk/time.h — the tick (HZ, jiffies), the TSC clock and the wall clock,
 * and the Linux types and clock ids of the time system calls. */
#ifndef ZPK_TIME_H
#define ZPK_TIME_H

#include <zpk/compiler.h>
#include <zpk/types.h>

#define HZ		100			/* timer interrupts per second */
#define USER_HZ		100			/* clock_t's ticks per second */
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

/* Timer ticks since boot; only CPU 0's local timer interrupt writes it. */
extern volatile u64 jiffies;
/* jiffies, caught up with the TSC's clock when CPU 0's tick is late. */
u64 get_jiffies_64(void);
/* TSC frequency in kHz, measured against the PIT by time_init. */
extern unsigned long tsc_khz;

/* TSC calibration, RTC read: once, at boot (the tick is apic_init's). */
void time_init(void);
/* Each CPU's local timer interrupt (user: it came from user mode):
 * jiffies (CPU 0), then update_process_times. */
void tick_handle_periodic(bool user);
/* How far read() advances per ms of the PIT (0: the PIT does not run). */
u64 pit_calibrate(u64 (*read)(void));
/* Busy-waits at least us microseconds. */
void udelay(unsigned long us);
/* Monotonic nanoseconds since time_init, from the TSC. */
u64 ktime_get_ns(void);
/* Wall clock: nanoseconds since 1970-01-01 UTC (RTC at boot + monotonic). */
u64 ktime_get_real_ns(void);
/* A user timespec as ns (Linux's get_timespec64 and its check): 0,
 * -EFAULT, or -EINVAL for a negative or unnormalised one; seconds past
 * 2^63 ns are cut there ("forever"). */
long timespec_from_user(const struct __kernel_timespec __user *u, u64 *ns);
/* Seconds since 1970 for a UTC date (mon 1..12), as Linux's mktime64. */
u64 mktime64(unsigned int year, unsigned int mon, unsigned int day,
	     unsigned int hour, unsigned int min, unsigned int sec);

#endif
