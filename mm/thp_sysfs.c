/* mm/thp_sysfs.c — /sys/kernel/mm/transparent_hugepage: the THP policy's
 * files (Linux's hugepage_init_sysfs in mm/huge_memory.c), kept apart so
 * that huge_memory.c builds in the host tests without /sys. */
#include <zpk/bug.h>
#include <zpk/huge_mm.h>
#include <zpk/proc_fs.h>
#include <zpk/sysfs.h>

static int thp_sysfs_text(struct seq_file *m, ssize_t (*show)(char *, size_t))
{
	char buf[64];

	show(buf, sizeof(buf));
	seq_puts(m, buf);
	return 0;
}

static int enabled_show(struct seq_file *m, struct task_struct *t)
{
	(void)t;
	return thp_sysfs_text(m, thp_enabled_show);
}

static ssize_t enabled_store(struct task_struct *t, const char *buf,
			     size_t n, loff_t pos)
{
	(void)t;
	(void)pos;
	return thp_enabled_store(buf, n);
}

static int defrag_show(struct seq_file *m, struct task_struct *t)
{
	(void)t;
	return thp_sysfs_text(m, thp_defrag_show);
}

/* Linux's hugepage_init_sysfs, once /sys is there, in part: enabled (as
 * Linux's, writable) and defrag (read-only: zpk never compacts, so it
 * has nothing to choose). use_zero_page and hpage_pmd_size are left out:
 * Linux's cow selftest takes hpage_pmd_size for a THP it may reconfigure
 * and then needs the mTHP, khugepaged and shmem files zpk lacks. */
void thp_sysfs_init(void)
{
	BUG_ON(sysfs_mkdir("kernel/mm/transparent_hugepage"));
	BUG_ON(sysfs_create_file("kernel/mm/transparent_hugepage/enabled",
				 0644, enabled_show, enabled_store) ||
	       sysfs_create_file("kernel/mm/transparent_hugepage/defrag", 0444,
				 defrag_show, NULL));
}
