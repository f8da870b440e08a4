/* mm/thp_sysfs.c — /sys/kernel/mm/transparent_hugepage: Linux 6.1's
 * hugepage_attr group (mm/huge_memory.c) and khugepaged's knobs
 * (mm/khugepaged.c), kept apart so that huge_memory.c builds in the host
 * tests without /sys. zpk has no khugepaged: its knobs are stored,
 * range-checked as Linux's, and read by nothing, so that Linux's
 * selftests can save, set and restore them (thp_settings.c). */
#include <zpk/bug.h>
#include <zpk/errno.h>
#include <zpk/huge_mm.h>
#include <zpk/proc_fs.h>
#include <zpk/string.h>
#include <zpk/sysfs.h>

#define THP_DIR	"kernel/mm/transparent_hugepage/"

/* A sysfs text file served by a huge_mm.h show (the strings are short). */
static int show_text(struct seq_file *m, ssize_t (*show)(char *, size_t))
{
	char buf[64];

	show(buf, sizeof(buf));
	seq_puts(m, buf);
	return 0;
}

#define THP_ATTR(name, show_fn, store_fn)				\
static int attr_##name##_show(struct seq_file *m, struct task_struct *t) \
{									\
	(void)t;							\
	return show_text(m, show_fn);					\
}									\
static ssize_t attr_##name##_store(struct task_struct *t, const char *buf, \
				   size_t n, loff_t pos)		\
{									\
	(void)t;							\
	(void)pos;							\
	return store_fn(buf, n);					\
}

THP_ATTR(enabled, thp_enabled_show, thp_enabled_store)
THP_ATTR(defrag, thp_defrag_show, thp_defrag_store)
THP_ATTR(use_zero_page, thp_use_zero_page_show, thp_use_zero_page_store)
THP_ATTR(shmem_enabled, shmem_enabled_show, shmem_enabled_store)

static int hpage_pmd_size_show(struct seq_file *m, struct task_struct *t)
{
	(void)t;
	seq_printf(m, "%lu\n", HPAGE_PMD_SIZE);
	return 0;
}

/* ---- khugepaged/ ------------------------------------------------- */

/* A number knob: Linux's default, and the range its store accepts. */
struct khugepaged_knob {
	unsigned long val, min, max;
};

/* Linux 6.1's defaults (khugepaged_init) and stores: the max_ptes_*
 * up to HPAGE_PMD_NR - 1, pages_to_scan not 0, the sleeps any unsigned
 * int; pages_collapsed and full_scans read-only, and 0 here for ever. */
static struct khugepaged_knob pages_to_scan = { HPAGE_PMD_NR * 8, 1, ~0U };
static struct khugepaged_knob scan_sleep = { 10000, 0, ~0U };
static struct khugepaged_knob alloc_sleep = { 60000, 0, ~0U };
static struct khugepaged_knob max_ptes_none = { HPAGE_PMD_NR - 1, 0,
						HPAGE_PMD_NR - 1 };
static struct khugepaged_knob max_ptes_swap = { HPAGE_PMD_NR / 8, 0,
						HPAGE_PMD_NR - 1 };
static struct khugepaged_knob max_ptes_shared = { HPAGE_PMD_NR / 2, 0,
						  HPAGE_PMD_NR - 1 };
static struct khugepaged_knob pages_collapsed, full_scans;
static bool khugepaged_defrag = true;

static int knob_show(struct seq_file *m, struct khugepaged_knob *k)
{
	seq_printf(m, "%lu\n", READ_ONCE(k->val));
	return 0;
}

/* Linux's kstrtouint/kstrtoul and range check: anything else -EINVAL. */
static ssize_t knob_store(struct khugepaged_knob *k, const char *buf,
			  size_t n)
{
	char num[24];
	unsigned long v;

	if (n >= sizeof(num))
		return -EINVAL;
	memcpy(num, buf, n);
	num[n] = '\0';
	if (kstrtoul(num, 10, &v) || v < k->min || v > k->max)
		return -EINVAL;
	WRITE_ONCE(k->val, v);
	return (ssize_t)n;
}

#define KNOB(name, knob)						\
static int name##_show(struct seq_file *m, struct task_struct *t)	\
{									\
	(void)t;							\
	return knob_show(m, &knob);					\
}									\
static ssize_t name##_store(struct task_struct *t, const char *buf,	\
			    size_t n, loff_t pos)			\
{									\
	(void)t;							\
	(void)pos;							\
	return knob_store(&knob, buf, n);				\
}

KNOB(pages_to_scan, pages_to_scan)
KNOB(scan_sleep_millisecs, scan_sleep)
KNOB(alloc_sleep_millisecs, alloc_sleep)
KNOB(max_ptes_none, max_ptes_none)
KNOB(max_ptes_swap, max_ptes_swap)
KNOB(max_ptes_shared, max_ptes_shared)

static int pages_collapsed_show(struct seq_file *m, struct task_struct *t)
{
	(void)t;
	return knob_show(m, &pages_collapsed);
}

static int full_scans_show(struct seq_file *m, struct task_struct *t)
{
	(void)t;
	return knob_show(m, &full_scans);
}

static int khugepaged_defrag_show(struct seq_file *m, struct task_struct *t)
{
	(void)t;
	seq_printf(m, "%d\n", READ_ONCE(khugepaged_defrag));
	return 0;
}

static ssize_t khugepaged_defrag_store(struct task_struct *t,
				       const char *buf, size_t n, loff_t pos)
{
	(void)t;
	(void)pos;
	return thp_flag_store(buf, n, &khugepaged_defrag);
}

/* Linux's hugepage_init_sysfs and khugepaged's attribute group: 0644
 * where Linux stores, 0444 where it only shows. */
void thp_sysfs_init(void)
{
	static const struct {
		const char *path;
		u32 mode;
		proc_show_fn show;
		proc_write_fn store;
	} files[] = {
#define RW(p, f)	{ THP_DIR p, 0644, f##_show, f##_store }
#define RO(p, f)	{ THP_DIR p, 0444, f##_show, NULL }
		RW("enabled", attr_enabled), RW("defrag", attr_defrag),
		RW("use_zero_page", attr_use_zero_page),
		RO("hpage_pmd_size", hpage_pmd_size),
		RW("shmem_enabled", attr_shmem_enabled),
		RW("khugepaged/defrag", khugepaged_defrag),
		RW("khugepaged/pages_to_scan", pages_to_scan),
		RW("khugepaged/scan_sleep_millisecs", scan_sleep_millisecs),
		RW("khugepaged/alloc_sleep_millisecs", alloc_sleep_millisecs),
		RW("khugepaged/max_ptes_none", max_ptes_none),
		RW("khugepaged/max_ptes_swap", max_ptes_swap),
		RW("khugepaged/max_ptes_shared", max_ptes_shared),
		RO("khugepaged/pages_collapsed", pages_collapsed),
		RO("khugepaged/full_scans", full_scans),
#undef RW
#undef RO
	};

	BUG_ON(sysfs_mkdir("kernel/mm/transparent_hugepage") ||
	       sysfs_mkdir(THP_DIR "khugepaged"));
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		BUG_ON(sysfs_create_file(files[i].path, files[i].mode,
					 files[i].show, files[i].store));
}
