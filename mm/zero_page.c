/* mm/zero_page.c — empty_zero_page: one page of zeros shared by every
 * zero-page mapping; read-only in both its kernel mappings (see mmu.c).
 * Its policy, its refcount, and /dev/zero's zeromap_page_range. */
#include <zpk/bug.h>
#include <zpk/errno.h>
#include <zpk/memory.h>
#include <zpk/param.h>
#include <zpk/printk.h>
#include <zpk/sprintf.h>
#include <zpk/string.h>
#include <zpk/vmstat.h>
#include <zpk/zero_page.h>
#include "internal.h"

/* Its own section so the linker gives it a page alone: mmu.c maps exactly
 * this page read-only in the image map and in the direct map. */
static const char *const policy_name[3];

char empty_zero_page[PAGE_SIZE]
	__section(".bss..zero_page") __aligned(PAGE_SIZE);
unsigned long zero_pfn;

void zero_page_init(void)
{
	struct page *page;

	zero_pfn = PHYS_PFN(__pa(empty_zero_page));
	page = pfn_to_page(zero_pfn);
	page_set_flag(page, PG_zero);
	page_set_flag(page, PG_reserved);
	pr_info("zpk: zero page at pfn %#lx, zero_page=%s\n", zero_pfn,
		policy_name[zero_page_policy]);
}

long zero_page_first_nonzero(void)
{
	const u64 *p = (const u64 *)empty_zero_page;

	for (unsigned long i = 0; i < PAGE_SIZE / 8; i++)
		if (p[i])
			for (unsigned long b = i * 8; b < i * 8 + 8; b++)
				if (empty_zero_page[b])
					return (long)b;
	return -1;
}

void zero_page_verify(void)
{
	long off = zero_page_first_nonzero();

	if (off >= 0)
		BUGF("zero page (pfn %#lx) corrupted: byte %#lx is %#x",
		     zero_pfn, off, (u8)empty_zero_page[off]);
}

/* ---- the policy ------------------------------------------------------ */

enum zero_page_policy zero_page_policy = ZERO_PAGE_SPECIAL;

static const char *const policy_name[3] = {
	[ZERO_PAGE_SPECIAL] = "special",
	[ZERO_PAGE_REFCOUNT] = "refcount",
	[ZERO_PAGE_OFF] = "off",
};

int zero_page_set_policy(const char *name)
{
	size_t len = strlen(name);

	if (len && name[len - 1] == '\n')
		len--;
	for (unsigned int i = 0; i < ARRAY_SIZE(policy_name); i++)
		if (strlen(policy_name[i]) == len &&
		    !memcmp(policy_name[i], name, len)) {
			zero_page_policy = i;
			return 0;
		}
	return -EINVAL;
}

int zero_page_policy_show(char *buf, size_t size)
{
	int n = 0;

	for (unsigned int i = 0; i < ARRAY_SIZE(policy_name); i++)
		n += snprintf(buf + n, size > (size_t)n ? size - n : 0,
			      i == zero_page_policy ? "%s[%s]" : "%s%s",
			      i ? " " : "", policy_name[i]);
	n += snprintf(buf + n, size > (size_t)n ? size - n : 0, "\n");
	return n;
}

static int __used setup_zero_page(const char *val)
{
	return val && !zero_page_set_policy(val) ? 0 : -1;
}
early_param("zero_page", setup_zero_page,
	    "special|refcount|off: how read faults use the zero page");

/* ---- zero_page=refcount: the one shared counter ------------------------- */

/* Every call touches the zero page's struct page: on an SMP machine this
 * is the cache line that bounced between CPUs (LWN, "Some ado about
 * zero", 2009). */
void zero_page_get(void)
{
	/* LAB(zero-page-whole) BEGIN task 2: a reference and a mapcount */
	/* LAB(zero-page) BEGIN task 2: a reference and a mapcount */
	struct page *page = ZERO_PAGE(0);

	get_page(page);
	atomic_inc(&page->_mapcount);
	count_vm_event(ZERO_PAGE_REFCOUNT_OPS);
	/* LAB(zero-page) END */
	/* LAB(zero-page-whole) END */
}

void zero_page_put(void)
{
	/* LAB(zero-page-whole) BEGIN task 2: and gives them back */
	/* LAB(zero-page) BEGIN task 2: and gives them back */
	struct page *page = ZERO_PAGE(0);

	if (page_mapcount(page) <= 0 || page_count(page) <= 1)
		BUGF("zero_page_put: zero page has _refcount %d, _mapcount %d",
		     page_count(page), page_mapcount(page) - 1);
	atomic_dec(&page->_mapcount);
	page_ref_add(page, -1);	/* never the last: the page holds one */
	count_vm_event(ZERO_PAGE_REFCOUNT_OPS);
	/* LAB(zero-page) END */
	/* LAB(zero-page-whole) END */
}

int zero_page_refcount(void)
{
	return page_count(ZERO_PAGE(0));
}

/*
 * 2.6.23's read_zero() trick (zeromap_page_range): replaces whatever
 * [start, end) of a private anonymous VMA maps by refcounted zero-page
 * PTEs, as if the pages had never been written. Returns 0 or -ENOMEM.
 * Called by /dev/zero's read (fs/zero.c) with mm's mmap_lock held for
 * reading; takes and drops each PTE table's lock.
 */
int zeromap_page_range(struct vm_area_struct *vma, unsigned long start,
		       unsigned long end)
{
	/* LAB(zero-page-whole) BEGIN task 3: read() from /dev/zero, 2.6.23's way */
	pte_t entry = pte_wrprotect(pfn_pte(zero_pfn,
					    vm_get_page_prot(vma->vm_flags)));

	zap_page_range(vma, start, end);
	for (unsigned long addr = start; addr < end; addr += PAGE_SIZE) {
		spinlock_t *ptl;
		pte_t *pte = pte_alloc_map_lock(vma->vm_mm, addr, &ptl);

		if (!pte)
			return -ENOMEM;
		if (pte_none(*pte)) {	/* none (zapped) unless a fault won */
			zero_pte_add(vma->vm_mm, entry);
			count_vm_event(ZERO_PAGE_MAP);
			set_pte(pte, entry);	/* none before: no flush */
		}
		pte_unmap_unlock(pte, ptl);
	}
	return 0;
	/* LAB(zero-page-whole) END:
	 * zap_page_range(vma, start, end);
	 * return 0;
	 */
}
