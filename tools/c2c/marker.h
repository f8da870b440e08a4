/* tools/c2c/marker.h — how a workload talks to the c2c plugin
 * (docs/c2c.md): a store to C2C_MARK_START opens the measured window, one
 * to C2C_MARK_STOP closes it. Any vCPU, any process, any kernel: only
 * the virtual address counts, so the same program marks its window on
 * zpk and on Linux. Included by the plugin (tools/c2c/c2c.c) and by the
 * workloads (user/bench/smp.c, user/tests/c2c_pingpong.c). */
#ifndef C2C_MARKER_H
#define C2C_MARKER_H

#include <sched.h>

#define C2C_MARK_START	0x6c2c0000ul
#define C2C_MARK_STOP	0x6c2c0040ul

/* The workload's side: a store to a marker (the page at C2C_MARK_START
 * must be mapped, and touched once before the window opens). */
static inline void c2c_mark(unsigned long marker)
{
	*(volatile char *)marker = 1;
}

/* Waits until *flag >= value. With pause, a pause loop: under QEMU's
 * round-robin TCG a pause hands the host thread to the next vCPU, and no
 * system call falls in the window; without (fewer CPUs than spinners),
 * sched_yield, not to spin out a time slice. */
static inline void c2c_spin_until(int *flag, int value, int pause)
{
	while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) < value) {
		if (pause)
			__asm__ volatile("pause");
		else
			sched_yield();
	}
}

#endif
