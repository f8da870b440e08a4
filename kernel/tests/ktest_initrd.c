/* kernel/tests/ktest_initrd.c — ktests of the initrd (kernel/initrd.c):
 * GRUB's module is there and unpacked. */
#include <zpk/fs.h>
#include <zpk/ktest.h>
#include <zpk/multiboot2.h>
#include <zpk/string.h>

/* make test boots the ktests with the user initrd: /sbin/init must be an
 * ELF file readable through the VFS. */
KTEST(initrd, sbin_init_is_elf)
{
	struct file *f = NULL;
	char magic[4] = { 0 };
	int i = 0;

	while (i < boot_info.nr_modules &&
	       strcmp(boot_info.modules[i].name, "initrd"))
		i++;
	KEXPECT_TRUE(i < boot_info.nr_modules);
	KEXPECT_EQ(vfs_open("/sbin/init", O_RDONLY, 0, &f), 0);
	if (!f)
		return;
	KEXPECT_EQ(vfs_read(f, magic, 4), 4);
	KEXPECT_EQ(memcmp(magic, "\177ELF", 4), 0);
	fput(f);
}
