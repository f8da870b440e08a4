/* mm/vmstat.c — the system-wide memory counters and their names, printed
 * in Linux's /proc/vmstat format ("name value" lines). */
#include <zpk/atomic.h>
#include <zpk/printk.h>
#include <zpk/sprintf.h>
#include <zpk/vmstat.h>

#include "internal.h"

/* LAB(smp) BEGIN task 1: each CPU's counters */
struct vm_cpu_stat vm_cpu_stats[NR_CPUS];
/* LAB(smp) END: atomic_long_t vm_stat_shared[NR_VMSTAT_ITEMS]; */

/* A state's value may be read while CPUs change it; the sum of CPUs that
 * each moved by whole allocations is never below 0, but a reader adding
 * up lines one at a time may see a free on one CPU before the allocation
 * it undoes on another: clamped at 0, as Linux's global_zone_page_state. */
unsigned long global_vm_stat(enum vm_stat_item item)
{
	/* LAB(smp) BEGIN task 1: the sum of every CPU's value */
	long sum = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		sum += READ_ONCE(vm_cpu_stats[cpu].stat[item]);
	/* LAB(smp) END:
	 * long sum = atomic_long_read(&vm_stat_shared[item]);
	 *
	 */
	return sum < 0 ? 0 : (unsigned long)sum;
}

unsigned long global_vm_event(enum vm_event_item item)
{
	/* LAB(smp) BEGIN task 1: the sum of every CPU's value */
	unsigned long sum = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		sum += READ_ONCE(vm_cpu_stats[cpu].event[item]);
	return sum;
	/* LAB(smp) END:
	 * return (unsigned long)atomic_long_read(
	 * 	&vm_stat_shared[NR_VM_STAT_ITEMS + item]);
	 */
}

/* Indexed by item, so a reordered enum cannot give a counter another name. */
const char *const vmstat_text[NR_VMSTAT_ITEMS] = {
	[NR_FREE_PAGES]		= "nr_free_pages",
	[NR_PAGE_TABLE_PAGES]	= "nr_page_table_pages",
	[NR_SLAB]		= "nr_slab_unreclaimable",
	[NR_ANON_PAGES]		= "nr_anon_pages",
	[NR_FILE_MAPPED]	= "nr_mapped",
	[NR_SHMEM]		= "nr_shmem",
	[NR_KERNEL_STACK]	= "nr_kernel_stack",
	[NR_ANON_THPS]		= "nr_anon_transparent_hugepages",
#define EV(item) NR_VM_STAT_ITEMS + (item)
	[EV(PGALLOC)]		= "pgalloc_normal",
	[EV(PGFREE)]		= "pgfree",
	[EV(PGZERO)]		= "pgzero",
	[EV(PGFAULT)]		= "pgfault",
	[EV(PGMAJFAULT)]	= "pgmajfault",
	[EV(PSWPIN)]		= "pswpin",
	[EV(PSWPOUT)]		= "pswpout",
	[EV(PGSCAN_KSWAPD)]	= "pgscan_kswapd",
	[EV(PGSCAN_DIRECT)]	= "pgscan_direct",
	[EV(PGSTEAL_KSWAPD)]	= "pgsteal_kswapd",
	[EV(PGSTEAL_DIRECT)]	= "pgsteal_direct",
	[EV(COW_FAULT)]		= "cow_fault",
	[EV(ZERO_PAGE_MAP)]	= "zero_page_map",
	[EV(ZERO_PAGE_COW)]	= "zero_page_cow",
	[EV(ZERO_PAGE_UNMAP)]	= "zero_page_unmap",
	[EV(ZERO_PAGE_FORK_COPY)] = "zero_page_fork_copy",
	[EV(ZERO_PAGE_REFCOUNT_OPS)] = "zero_page_refcount_ops",
	[EV(NR_TLB_LOCAL_FLUSH_ALL)] = "nr_tlb_local_flush_all",
	[EV(NR_TLB_LOCAL_FLUSH_ONE)] = "nr_tlb_local_flush_one",
	[EV(NR_TLB_REMOTE_FLUSH)] = "nr_tlb_remote_flush",
	[EV(NR_TLB_REMOTE_FLUSH_RECEIVED)] = "nr_tlb_remote_flush_received",
	[EV(THP_FAULT_ALLOC)]	= "thp_fault_alloc",
	[EV(THP_FAULT_FALLBACK)] = "thp_fault_fallback",
	[EV(THP_COLLAPSE_ALLOC)] = "thp_collapse_alloc",
	[EV(THP_COLLAPSE_ALLOC_FAILED)] = "thp_collapse_alloc_failed",
	[EV(THP_SPLIT_PAGE)]	= "thp_split_page",
	[EV(THP_SPLIT_PMD)]	= "thp_split_pmd",
	[EV(THP_ZERO_PAGE_ALLOC)] = "thp_zero_page_alloc",
	[EV(THP_ZERO_PAGE_ALLOC_FAILED)] = "thp_zero_page_alloc_failed",
#undef EV
};

/* Item i of vmstat_text's numbering: a state, then the events. */
static unsigned long vmstat_value(unsigned int i)
{
	if (i < NR_VM_STAT_ITEMS)
		return global_vm_stat(i);
	return global_vm_event(i - NR_VM_STAT_ITEMS);
}

size_t vmstat_format(char *buf, size_t size)
{
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (unsigned int i = 0; i < NR_VMSTAT_ITEMS; i++) {
		/* Past the end, only count: snprintf(NULL, 0) measures. */
		bool room = len < size;

		len += (size_t)snprintf(room ? buf + len : NULL,
					room ? size - len : 0, "%s %lu\n",
					vmstat_text[i], vmstat_value(i));
	}
	return len;
}

void vmstat_print(void)
{
	for (unsigned int i = 0; i < NR_VMSTAT_ITEMS; i++)
		printk(KERN_INFO "%s %lu\n", vmstat_text[i], vmstat_value(i));
}
