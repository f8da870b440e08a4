/* kernel/panic.c — panic(), WARN, and stack backtraces.
 * A panic prints why and where, then powers QEMU off with ZPK_EXIT_PANIC. */
#include <asm/io.h>
#include <asm/sections.h>
#include <asm/smp.h>
#include <zpk/atomic.h>
#include <zpk/bug.h>
#include <zpk/kallsyms.h>
#include <zpk/printk.h>
#include <zpk/reboot.h>
#include <zpk/smp.h>

#define MAX_FRAMES 32

static bool kernel_text(unsigned long a)
{
	return a >= (unsigned long)_text && a < (unsigned long)_etext;
}

static void print_frame(unsigned long addr)
{
	char sym[128];

	sprint_symbol(sym, sizeof(sym), addr);
	printk(KERN_EMERG "  [<%016lx>] %s\n", addr, sym);
}

/*
 * Each frame is [saved rbp][return address] (the code is built with
 * -fno-omit-frame-pointer); boot/start64.asm zeroes rbp so the walk ends.
 */
void show_stack(unsigned long rip, unsigned long rbp)
{
	printk(KERN_EMERG "Call Trace:\n");
	if (rip)
		print_frame(rip);
	for (int i = 0; i < MAX_FRAMES && rbp && !(rbp & 7); i++) {
		unsigned long *frame = (unsigned long *)rbp;
		unsigned long ret = frame[1];

		if (!kernel_text(ret))
			break;
		print_frame(ret - 1);	/* inside the call, not after it */
		if (frame[0] <= rbp)	/* stacks grow down: callers above */
			break;
		rbp = frame[0];
	}
}

void dump_stack(void)
{
	show_stack(0, (unsigned long)__builtin_frame_address(0));
}

/*
 * One CPU reports: the first to panic stops the others with an NMI each
 * (smp_send_stop), so its report is the last word on the console. A
 * second panic on another CPU just stops that CPU; a panic inside the
 * report powers off at once.
 */
void panic(const char *fmt, ...)
{
	static atomic_t panic_cpu = ATOMIC_INIT(-1);
	int cpu = smp_processor_id();
	char msg[256];
	va_list ap;

	cli();
	if (atomic_cmpxchg(&panic_cpu, -1, cpu) != -1) {
		if (atomic_read(&panic_cpu) == cpu)
			kernel_poweroff(ZPK_EXIT_PANIC);
		stop_this_cpu();
	}
	smp_send_stop();
	bust_spinlocks();
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printk(KERN_EMERG "Kernel panic - not syncing: %s\n", msg);
	dump_stack();
	printk(KERN_EMERG "---[ end Kernel panic ]---\n");
	kernel_poweroff(ZPK_EXIT_PANIC);
}
