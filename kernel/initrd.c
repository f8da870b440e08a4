/* kernel/initrd.c — at boot: the root file system, then the initrd module
 * GRUB loaded (module2 ... initrd) unpacked into it. */
#include <asm/page.h>
#include <zpk/fs.h>
#include <zpk/initrd.h>
#include <zpk/memblock.h>
#include <zpk/multiboot2.h>
#include <zpk/printk.h>
#include <zpk/proc_fs.h>
#include <zpk/string.h>
#include <zpk/sysfs.h>

static const struct boot_module *find_initrd(void)
{
	for (int i = 0; i < boot_info.nr_modules; i++)
		if (!strcmp(boot_info.modules[i].name, "initrd"))
			return &boot_info.modules[i];
	return NULL;
}

/* The module's pages are freed once unpacked, as Linux's free_initrd_mem:
 * the files were copied out of it. */
void initrd_init(void)
{
	const struct boot_module *m = find_initrd();
	int err;

	vfs_init();
	proc_root_init();
	sysfs_init();
	tty_init();
	userfaultfd_init();
	if (!m) {
		pr_info("initrd: none (no \"initrd\" module)\n");
		return;
	}
	err = initrd_unpack(__va(m->start), m->end - m->start);
	if (err)
		pr_err("initrd: unpacking failed (%d); root is empty\n", err);
	else
		pr_info("initrd: %llu KiB unpacked into /\n",
			(unsigned long long)(m->end - m->start) >> 10);
	free_reserved_area(__va(m->start), __va(m->end), "initrd");
}
