/* fs/proc/meminfo.c — /proc/meminfo in Linux's "%-15s %8lu kB"
 * layout; only the lines zpk can fill honestly (see docs/proc.md). */
#include <zpk/fs.h>
#include <zpk/huge_mm.h>
#include <zpk/memblock.h>
#include <zpk/mm.h>
#include <zpk/sched.h>
#include <zpk/swap.h>
#include <zpk/vmstat.h>
#include "internal.h"

static void show_val_kb(struct seq_file *m, const char *name,
			unsigned long pages)
{
	seq_printf(m, "%-15s %8lu kB\n", name, pages << (PAGE_SHIFT - 10));
}

/* Every task has a THREAD_SIZE kernel stack. */
static unsigned long kernel_stack_kb(void)
{
	struct task_struct *t;
	unsigned long n = 0;

	list_for_each_entry(t, &task_list, tasks)
		if (t->stack)
			n++;
	return n * (THREAD_SIZE >> 10);
}

static int meminfo_show(struct seq_file *m, struct task_struct *task)
{
	unsigned long free = nr_free_pages();
	unsigned long slab = global_vm_stat(NR_SLAB);
	unsigned long swap_total, swap_free;

	(void)task;
	si_swapinfo(&swap_total, &swap_free);
	show_val_kb(m, "MemTotal:", totalram_pages());
	show_val_kb(m, "MemFree:", free);
	/* Nothing is reclaimable: RAM files cannot be dropped. */
	show_val_kb(m, "MemAvailable:", free);
	show_val_kb(m, "Buffers:", 0);
	show_val_kb(m, "Cached:", ramfs_cached_pages());
	show_val_kb(m, "SwapCached:", total_swapcache_pages());
	show_val_kb(m, "SwapTotal:", swap_total);
	show_val_kb(m, "SwapFree:", swap_free);
	show_val_kb(m, "Dirty:", 0);
	show_val_kb(m, "Writeback:", 0);
	show_val_kb(m, "AnonPages:", global_vm_stat(NR_ANON_PAGES));
	show_val_kb(m, "Mapped:", global_vm_stat(NR_FILE_MAPPED));
	show_val_kb(m, "Shmem:", global_vm_stat(NR_SHMEM));
	show_val_kb(m, "KReclaimable:", 0);
	show_val_kb(m, "Slab:", slab);
	show_val_kb(m, "SReclaimable:", 0);
	show_val_kb(m, "SUnreclaim:", slab);
	seq_printf(m, "%-15s %8lu kB\n", "KernelStack:", kernel_stack_kb());
	show_val_kb(m, "PageTables:", global_vm_stat(NR_PAGE_TABLE_PAGES));
	show_val_kb(m, "AnonHugePages:",
		    global_vm_stat(NR_ANON_THPS) * HPAGE_PMD_NR);
	return 0;
}

void proc_meminfo_init(void)
{
	proc_create("meminfo", 0444, meminfo_show, NULL);
}
