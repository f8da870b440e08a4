/* kernel/tests/ktest_core.c — ktests of the kernel's own basics: kallsyms,
 * printk capture and levels, the parameter table, the multiboot2 map. */
#include <zpk/init.h>
#include <zpk/kallsyms.h>
#include <zpk/ktest.h>
#include <zpk/multiboot2.h>
#include <zpk/param.h>
#include <zpk/printk.h>
#include <zpk/string.h>


KTEST(kallsyms, names_kernel_main)
{
	unsigned long a = kallsyms_lookup_name("kernel_main");
	unsigned long size = 0, off = 1;
	const char *name;

	KEXPECT_NE(a, 0);
	KEXPECT_EQ(a, (unsigned long)kernel_main);
	name = kallsyms_lookup(a + 5, &size, &off);
	KEXPECT_NOT_NULL(name);
	if (name)
		KEXPECT_EQ(strcmp(name, "kernel_main"), 0);
	KEXPECT_EQ(off, 5);
	KEXPECT_TRUE(size > 5);
}

KTEST(kallsyms, sprint_symbol_format)
{
	char buf[128];

	sprint_symbol(buf, sizeof(buf), kallsyms_lookup_name("printk") + 2);
	KEXPECT_STRSTR(buf, "printk+0x2/0x");
	sprint_symbol(buf, sizeof(buf), 0x1234);	/* not kernel text */
	KEXPECT_EQ(strcmp(buf, "0x1234"), 0);
}

KTEST(kallsyms, dump_stack_names_callers)
{
	char buf[1024];

	printk_capture_start(buf, sizeof(buf));
	dump_stack();
	printk_capture_stop();
	KEXPECT_STRSTR(buf, "Call Trace:");
	KEXPECT_STRSTR(buf, "ktest_kallsyms_dump_stack_names_callers+");
	KEXPECT_STRSTR(buf, "ktest_run+");
	KEXPECT_STRSTR(buf, "kernel_main+");
}

KTEST(printk, capture_and_format)
{
	char buf[128];

	printk_capture_start(buf, sizeof(buf));
	printk(KERN_DEBUG "x=%d s=%s p=%p\n", -5, "zpk", (void *)0x1000);
	printk_capture_stop();
	/* Level prefixes are stripped; debug is captured even if hidden. */
	KEXPECT_EQ(strcmp(buf, "x=-5 s=zpk p=0x0000000000001000\n"), 0);
}

KTEST(printk, capture_truncates_safely)
{
	char buf[8];

	printk_capture_start(buf, sizeof(buf));
	printk("0123456789");
	KEXPECT_EQ(printk_capture_stop(), 7);
	KEXPECT_EQ(strcmp(buf, "0123456"), 0);
}

KTEST(params, registered_with_help)
{
	const struct kernel_param *p = find_kernel_param("ktest");

	KEXPECT_NOT_NULL(p);
	KEXPECT_NOT_NULL(find_kernel_param("loglevel"));
	KEXPECT_NULL(find_kernel_param("no_such_param"));
	if (p)
		KEXPECT_NOT_NULL(p->help);
}

KTEST(params, command_line_kept)
{
	KEXPECT_STRSTR(boot_command_line, "ktest=");
}

KTEST(multiboot2, memory_map_has_usable_ram)
{
	u64 usable = 0;

	KEXPECT_TRUE(boot_info.nr_ranges > 0);
	for (int i = 0; i < boot_info.nr_ranges; i++) {
		const struct boot_range *r = &boot_info.ranges[i];

		KEXPECT_TRUE(r->end > r->start);
		if (r->type == MB2_MEMORY_AVAILABLE)
			usable += r->end - r->start;
	}
	KEXPECT_TRUE(usable >= 16ULL << 20);
	KEXPECT_TRUE(boot_info.info_end > boot_info.info_start);
}
