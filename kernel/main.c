/* kernel/main.c — kernel_main: the first C code, called from boot/start64.asm
 * with the multiboot2 magic and the physical address of the boot info. */
#include <asm/acpi.h>
#include <asm/apic.h>
#include <asm/irq.h>
#include <asm/processor.h>
#include <asm/smp.h>
#include <asm/syscall.h>
#include <asm/traps.h>
#include <zpk/blkdev.h>
#include <zpk/bug.h>
#include <zpk/console.h>
#include <zpk/huge_mm.h>
#include <zpk/init.h>
#include <zpk/initrd.h>
#include <zpk/ktest.h>
#include <zpk/mm.h>
#include <zpk/multiboot2.h>
#include <zpk/param.h>
#include <zpk/pci.h>
#include <zpk/printk.h>
#include <zpk/reboot.h>
#include <zpk/sched.h>
#include <zpk/sysfs.h>
#include <zpk/smp.h>
#include <zpk/spinlock.h>
#include <zpk/string.h>
#include <zpk/time.h>
#include <zpk/zero_page.h>
#include <asm/io.h>

static char crash_mode[16];	/* tests: crash=pf|ud|panic|zero_page|spinlock */
static bool poweroff_when_idle;

static int setup_crash(const char *val)
{
	if (!val)
		return -1;
	strlcpy(crash_mode, val, sizeof(crash_mode));
	return 0;
}
early_param("crash", setup_crash,
	    "pf|ud|panic|zero_page|spinlock: crash on purpose (tests)");

static int setup_idle(const char *val)
{
	if (!val || strcmp(val, "poweroff"))
		return -1;
	poweroff_when_idle = true;
	return 0;
}
early_param("idle", setup_idle, "poweroff: exit QEMU when boot is done");

/* A page fault on purpose: 0xdead0000 is mapped by nothing. (The printk
 * also gives the function a frame, which the backtrace walks.) */
static void __noinline crash_pf(void)
{
	volatile u64 *p = (volatile u64 *)0xdead0000UL;

	pr_info("zpk: writing to %p\n", (void *)p);
	*p = 1;
}

/* The zero page is read-only in every kernel mapping: this must BUG. */
static void __noinline crash_zero_page(void)
{
	volatile char *p = (char *)__va(PFN_PHYS(zero_pfn)) + 42;

	*p = 1;
}

/* Takes a spinlock it holds: reported as recursion, then a panic (the
 * CPU would otherwise wait for itself forever). */
static void __noinline crash_spinlock(void)
{
	static DEFINE_SPINLOCK(crash_lock);

	spin_lock(&crash_lock);
	spin_lock(&crash_lock);
}

static void do_crash(void)
{
	pr_info("zpk: crash=%s requested\n", crash_mode);
	if (!strcmp(crash_mode, "pf"))
		crash_pf();
	else if (!strcmp(crash_mode, "zero_page"))
		crash_zero_page();
	else if (!strcmp(crash_mode, "ud"))
		asm volatile("ud2");
	else if (!strcmp(crash_mode, "panic"))
		panic("crash=panic requested");
	else if (!strcmp(crash_mode, "spinlock"))
		crash_spinlock();
	pr_err("zpk: unknown crash mode \"%s\"\n", crash_mode);
}

static void console_init(void)
{
	serial_init();
	register_console(&serial_console);
	vga_init();
	register_console(&vga_console);
}

void kernel_main(u32 magic, u32 info)
{
	static char kernel_args[1024];	/* the command line before " -- " */

	smp_prepare_boot_cpu();
	console_init();
	gdt_init();
	idt_init();
	syscall_table_init();
	syscall_init();
	multiboot2_parse(magic, info);
	pr_info("zpk %s, the zero-page kernel (x86-64)\n", ZPK_VERSION);
	pr_info("Command line: %s\n", boot_command_line);
	strlcpy(kernel_args, boot_command_line, sizeof(kernel_args));
	split_init_args(kernel_args);
	parse_kernel_params(kernel_args);
	multiboot2_print();
	mm_init();
	fpu_init();
	sched_init();
	initrd_init();
	thp_sysfs_init();
	/* Device interrupts: PIC remapped and masked, the local APIC and its
	 * timer, the serial line unmasks its IRQ, and only then the CPU
	 * takes them. The other CPUs start last, once all of that is up. */
	init_8259A();
	time_init();
	apic_init();
	acpi_boot_init();
	serial_irq_init();
	pci_init();
	virtio_blk_init();
	sti();
	system_state = SYSTEM_SCHEDULING;
	smp_init();
	sysfs_cpu_init();

	if (crash_mode[0])
		do_crash();
	if (bench_requested()) {
		bench_run();
		kernel_poweroff(ZPK_EXIT_SUCCESS);
	}
	if (ktest_requested())
		kernel_poweroff(ktest_run() ? ZPK_EXIT_FAILURE
					    : ZPK_EXIT_SUCCESS);
	if (poweroff_when_idle)
		kernel_poweroff(ZPK_EXIT_SUCCESS);
	start_init();
}
