/* fs/sysfs.c — /sys: a file system of its own (Linux's sysfs magic and
 * mount line) whose files are /proc-style entries, one value each, and
 * what zpk shows there: /sys/devices/system/cpu, which glibc's
 * get_nprocs and programs like stress-ng read. */
#include <zpk/cpumask.h>
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/printk.h>
#include <zpk/slab.h>
#include <zpk/sprintf.h>
#include <zpk/string.h>
#include <zpk/sysfs.h>
#include "proc/internal.h"

struct super_block sysfs_sb = {
	.s_dev = 21,
	.s_magic = SYSFS_MAGIC,
	.s_type = "sysfs",
	.s_flags = ST_NOSUID | ST_NODEV | ST_NOEXEC | ST_RELATIME,
};

static int sysfs_full(char *full, size_t n, const char *path)
{
	return snprintf(full, n, "/sys/%s", path) >= (int)n ? -ENAMETOOLONG : 0;
}

int sysfs_mkdir(const char *path)
{
	char full[128];
	int err = sysfs_full(full, sizeof(full), path);

	return err ? err : pseudo_add(&sysfs_sb, full, S_IFDIR | 0755, NULL,
				      -EPERM);
}

int sysfs_create_file(const char *path, u32 mode, proc_show_fn show,
		      proc_write_fn store)
{
	struct proc_entry *e;
	char full[128];
	int err = sysfs_full(full, sizeof(full), path);

	if (err)
		return err;
	e = proc_entry_new(path, mode, show, NULL, store, NULL);
	if (!e)
		return -ENOMEM;
	err = pseudo_add(&sysfs_sb, full, e->mode, e, -EPERM);
	if (err)
		kfree(e);
	return err;
}

void sysfs_init(void)
{
	struct proc_inode *pi = proc_new_inode(S_IFDIR | 0555, PROC_NO_PID,
					       NULL);

	BUG_ON(!pi);
	pi->vfs_inode.i_sb = &sysfs_sb;
	pi->vfs_inode.i_fixed = -EPERM;
	sysfs_sb.s_root = &pi->vfs_inode;
	BUG_ON(ramfs_link(vfs_root, "sys", 3, &pi->vfs_inode));
	iput(&pi->vfs_inode);	/* the name holds it */
	BUG_ON(sysfs_mkdir("kernel") || sysfs_mkdir("kernel/mm") ||
	       sysfs_mkdir("devices") || sysfs_mkdir("devices/system"));
}

/* ---- /sys/devices/system/cpu -------------------------------------- */

/* Masks as Linux's cpumap lists: "0-3\n"; an empty one "\n". */
static int show_mask(struct seq_file *m, unsigned long bits)
{
	seq_cpu_list(m, bits);
	seq_putc(m, '\n');
	return 0;
}

static int cpu_online_show(struct seq_file *m, struct task_struct *t)
{
	(void)t;
	return show_mask(m, cpu_online_mask.bits);
}

/* No hotplug: every possible CPU is present. */
static int cpu_possible_show(struct seq_file *m, struct task_struct *t)
{
	(void)t;
	return show_mask(m, cpu_possible_mask.bits);
}

static int cpu_offline_show(struct seq_file *m, struct task_struct *t)
{
	(void)t;
	return show_mask(m, cpu_possible_mask.bits & ~cpu_online_mask.bits);
}

static int cpu_kernel_max_show(struct seq_file *m, struct task_struct *t)
{
	(void)t;
	seq_printf(m, "%d\n", NR_CPUS - 1);
	return 0;
}

/* cpuN/online of a CPU other than 0 (Linux's x86 boot CPU has none):
 * read-only, for no CPU can be taken down. */
static int cpu_is_online_show(struct seq_file *m, struct task_struct *t)
{
	(void)t;
	seq_puts(m, "1\n");
	return 0;
}

void sysfs_cpu_init(void)
{
	static const struct {
		const char *name;
		proc_show_fn show;
	} files[] = {
		{ "online", cpu_online_show }, { "possible", cpu_possible_show },
		{ "present", cpu_possible_show }, { "offline", cpu_offline_show },
		{ "kernel_max", cpu_kernel_max_show },
	};
	/* the entries keep their paths */
	static char paths[ARRAY_SIZE(files)][40], dirs[NR_CPUS][32];
	static char online[NR_CPUS][40];
	int cpu;

	BUG_ON(sysfs_mkdir("devices/system/cpu"));
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(paths[i], sizeof(paths[i]), "devices/system/cpu/%s",
			 files[i].name);
		BUG_ON(sysfs_create_file(paths[i], 0444, files[i].show, NULL));
	}
	for_each_possible_cpu(cpu) {
		snprintf(dirs[cpu], sizeof(dirs[cpu]),
			 "devices/system/cpu/cpu%d", cpu);
		BUG_ON(sysfs_mkdir(dirs[cpu]));
	}
	for_each_online_cpu(cpu)
		if (cpu) {
			snprintf(online[cpu], sizeof(online[cpu]), "%s/online",
				 dirs[cpu]);
			BUG_ON(sysfs_create_file(online[cpu], 0444,
						 cpu_is_online_show, NULL));
		}
}
