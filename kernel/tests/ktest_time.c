/* kernel/tests/ktest_time.c — ktests of the time system calls, through the
 * syscall table, writing into a test user page. */
#include <asm/syscall.h>
#include <asm/unistd.h>
#include <zpk/errno.h>
#include <zpk/ktest.h>
#include <zpk/mm.h>
#include <zpk/mmu.h>
#include <zpk/time.h>

#define TEST_UVA	0x0000000010400000UL	/* a user address, unmapped */
static long syscall2(unsigned long nr, unsigned long a, unsigned long b)
{
	struct pt_regs regs = { .vector = nr, .rdi = a, .rsi = b };

	do_syscall_64(&regs);
	return regs.rax;
}

KTEST(time_syscalls, clock_gettime_clocks)
{
	struct __kernel_timespec *ts = ktest_map_user_page(TEST_UVA);
	static const int ok[] = { CLOCK_REALTIME, CLOCK_MONOTONIC,
		CLOCK_MONOTONIC_RAW, CLOCK_REALTIME_COARSE,
		CLOCK_MONOTONIC_COARSE, CLOCK_BOOTTIME };

	for (unsigned int i = 0; i < ARRAY_SIZE(ok); i++) {
		ts->tv_nsec = -1;
		KEXPECT_EQ(syscall2(__NR_clock_gettime, ok[i], TEST_UVA), 0);
		KEXPECT_TRUE(ts->tv_nsec >= 0 && ts->tv_nsec < 1000000000);
	}
	KEXPECT_EQ(syscall2(__NR_clock_gettime, CLOCK_REALTIME, TEST_UVA), 0);
	KEXPECT_TRUE(ts->tv_sec > 1577836800);	/* after 2020-01-01 */
	KEXPECT_EQ(syscall2(__NR_clock_gettime, CLOCK_MONOTONIC_COARSE,
			    TEST_UVA), 0);
	KEXPECT_EQ(ts->tv_nsec % TICK_NSEC, 0);
	KEXPECT_EQ(syscall2(__NR_clock_gettime, 3, TEST_UVA), -EINVAL);
	KEXPECT_EQ(syscall2(__NR_clock_gettime, 99, TEST_UVA), -EINVAL);
	KEXPECT_EQ(syscall2(__NR_clock_gettime, CLOCK_MONOTONIC, 8), -EFAULT);
	KEXPECT_EQ(syscall2(__NR_clock_gettime, CLOCK_MONOTONIC,
			    (unsigned long)ts), -EFAULT);	/* kernel */
	ktest_unmap_user_page(TEST_UVA);
}

KTEST(time_syscalls, clock_getres)
{
	struct __kernel_timespec *ts = ktest_map_user_page(TEST_UVA);

	KEXPECT_EQ(syscall2(__NR_clock_getres, CLOCK_MONOTONIC, TEST_UVA), 0);
	KEXPECT_EQ(ts->tv_sec, 0);
	KEXPECT_EQ(ts->tv_nsec, 1);
	KEXPECT_EQ(syscall2(__NR_clock_getres, CLOCK_MONOTONIC_COARSE,
			    TEST_UVA), 0);
	KEXPECT_EQ(ts->tv_nsec, TICK_NSEC);
	KEXPECT_EQ(syscall2(__NR_clock_getres, CLOCK_REALTIME, 0), 0);
	KEXPECT_EQ(syscall2(__NR_clock_getres, 3, TEST_UVA), -EINVAL);
	KEXPECT_EQ(syscall2(__NR_clock_getres, CLOCK_REALTIME, 8), -EFAULT);
	ktest_unmap_user_page(TEST_UVA);
}

KTEST(time_syscalls, gettimeofday_and_time)
{
	char *p = ktest_map_user_page(TEST_UVA);
	struct __kernel_old_timeval *tv = (void *)p;
	struct timezone *tz = (void *)(p + 64);
	long *t = (long *)(p + 128);
	long now;

	tz->tz_minuteswest = 123;
	KEXPECT_EQ(syscall2(__NR_gettimeofday, TEST_UVA, TEST_UVA + 64), 0);
	KEXPECT_TRUE(tv->tv_sec > 1577836800);
	KEXPECT_TRUE(tv->tv_usec >= 0 && tv->tv_usec < 1000000);
	KEXPECT_EQ(tz->tz_minuteswest, 0);
	KEXPECT_EQ(tz->tz_dsttime, 0);
	KEXPECT_EQ(syscall2(__NR_gettimeofday, TEST_UVA, 0), 0);
	KEXPECT_EQ(syscall2(__NR_gettimeofday, 8, 0), -EFAULT);
	now = syscall2(__NR_time, 0, 0);
	KEXPECT_TRUE(now > 1577836800);
	KEXPECT_TRUE(syscall2(__NR_time, TEST_UVA + 128, 0) >= now);
	KEXPECT_TRUE(*t >= now && *t - now < 100);
	KEXPECT_EQ(syscall2(__NR_time, 8, 0), -EFAULT);
	ktest_unmap_user_page(TEST_UVA);
}
