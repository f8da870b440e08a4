/* fs/proc/page.c — /proc/kpageflags and /proc/kpagecount: one u64
 * per physical frame, Linux's bits (include/uapi/linux/kernel-page-flags.h). */
#include <zpk/errno.h>
#include <zpk/huge_mm.h>
#include <zpk/mm.h>
#include <zpk/mm_lifecycle.h>
#include <zpk/rwsem.h>
#include <zpk/zero_page.h>
#include "internal.h"

#define KPF_LOCKED	0
#define KPF_REFERENCED	2
#define KPF_DIRTY	4
#define KPF_SLAB	7
#define KPF_BUDDY	10
#define KPF_MMAP	11
#define KPF_ANON	12
#define KPF_COMPOUND_HEAD 15
#define KPF_COMPOUND_TAIL 16
#define KPF_NOPAGE	20
#define KPF_THP		22
#define KPF_ZERO_PAGE	24
#define KPF_PGTABLE	26
#define KPF_RESERVED	32

#define KPMSIZE		8

static u64 bit_if(bool cond, int bit)
{
	return cond ? 1ULL << bit : 0;
}

/* Inside a free block (Linux's is_free_buddy_page): PG_buddy, or PG_pcp
 * on a CPU's list, is set on the block's first page only. */
static bool is_free_buddy_page(unsigned long pfn)
{
	for (unsigned int order = 0; order < MAX_ORDER; order++) {
		struct page *head = pfn_to_page(pfn & ~((1UL << order) - 1));

		if ((PageBuddy(head) || page_test_flag(head, PG_pcp)) &&
		    head->order >= order)
			return true;
	}
	return false;
}

/* Linux's stable_page_flags for zpk's struct page. BUDDY is any free
 * page: a CPU's lists hold some too (mm/page_alloc.c). */
static u64 kpageflags_of(unsigned long pfn)
{
	struct page *p;

	if (!pfn_valid(pfn))
		return 1ULL << KPF_NOPAGE;
	p = pfn_to_page(pfn);
	return bit_if(page_test_flag(p, PG_locked), KPF_LOCKED) |
	       bit_if(page_test_flag(p, PG_referenced), KPF_REFERENCED) |
	       bit_if(page_test_flag(p, PG_dirty), KPF_DIRTY) |
	       bit_if(PageSlab(p), KPF_SLAB) |
	       bit_if(is_free_buddy_page(pfn), KPF_BUDDY) |
	       bit_if(page_mapcount(p) > 0, KPF_MMAP) |
	       bit_if(PageAnon(p), KPF_ANON) |
	       bit_if(is_zero_pfn(pfn) || is_huge_zero_pfn(pfn),
		      KPF_ZERO_PAGE) |
	       bit_if(PageHead(p), KPF_COMPOUND_HEAD) |
	       bit_if(PageTail(p), KPF_COMPOUND_TAIL) |
	       bit_if(PageCompound(p), KPF_THP) |
	       bit_if(page_test_flag(p, PG_pgtable), KPF_PGTABLE) |
	       bit_if(PageReserved(p), KPF_RESERVED);
}

/* Linux reports the mapcount here, not the refcount. */
static u64 kpagecount_of(unsigned long pfn)
{
	return pfn_valid(pfn) ? (u64)page_mapcount(pfn_to_page(pfn)) : 0;
}

/* Entries pos / 8 on, only those asked for; EOF at max_pfn, as Linux.
 * mmlist_lock for reading: mm_verify (which holds it for writing) tallies
 * mappings in each page's _mapcount while it checks, on any CPU. */
static ssize_t kpage_read(char *buf, size_t n, loff_t pos,
			  u64 (*of)(unsigned long pfn))
{
	unsigned long pfn = (unsigned long)pos / KPMSIZE;
	u64 *out = (u64 *)buf;
	size_t i;

	if (pos < 0 || pos % KPMSIZE || n % KPMSIZE)
		return -EINVAL;
	down_read(&mmlist_lock);
	for (i = 0; i < n / KPMSIZE && pfn + i < max_pfn; i++)
		out[i] = of(pfn + i);
	up_read(&mmlist_lock);
	return i * KPMSIZE;
}

static ssize_t kpageflags_read(struct task_struct *task, char *buf, size_t n,
			       loff_t pos)
{
	(void)task;
	return kpage_read(buf, n, pos, kpageflags_of);
}

static ssize_t kpagecount_read(struct task_struct *task, char *buf, size_t n,
			       loff_t pos)
{
	(void)task;
	return kpage_read(buf, n, pos, kpagecount_of);
}

void proc_page_init(void)
{
	proc_create_raw("kpageflags", 0400, kpageflags_read, NULL);
	proc_create_raw("kpagecount", 0400, kpagecount_read, NULL);
}
