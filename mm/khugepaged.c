/* mm/khugepaged.c — MADV_COLLAPSE (Linux 6.1's madvise_collapse): the
 * small pages of each 2 MiB-aligned range copied into a new THP, mapped
 * by one PMD, now and in the caller. khugepaged, Linux's thread that
 * collapses in the background, zpk has not. docs/vm.md, "Huge pages". */
#include <asm/tlbflush.h>
#include <zpk/errno.h>
#include <zpk/huge_mm.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/swap.h>
#include <zpk/swapops.h>
#include <zpk/vmstat.h>
#include "internal.h"

/* Why a range did or did not collapse: Linux's names, those zpk meets. */
enum scan_result {
	SCAN_FAIL,		/* a swap-in failed */
	SCAN_SUCCEED,
	SCAN_PMD_NULL,		/* no PTE table: nothing there */
	SCAN_PMD_MAPPED,	/* a huge PMD already */
	SCAN_PAGE_RO,		/* no PTE is writable */
	SCAN_PAGE_NULL,		/* a PTE of no normal page */
	SCAN_PAGE_ANON,		/* a page that is not anonymous */
	SCAN_PAGE_COUNT,	/* a page held by more than its mappings */
	SCAN_PAGE_LRU,		/* swapped out again meanwhile: try again */
	SCAN_ALLOC_HUGE_PAGE_FAIL,
};

/*
 * Whether table's PTEs may go into one THP (Linux's
 * hpage_collapse_scan_pmd, madvise's limits: any number of none, zero,
 * swapped or shared PTEs): every present PTE an anonymous page that its
 * mappings (and the swap cache) alone hold, at least one present PTE
 * writable. *swapped: a swap PTE was seen (the caller reads it in);
 * with swap_ok false one is SCAN_PAGE_LRU. PTE lock held.
 */
static int scan_ptes(struct vm_area_struct *vma, pte_t *table,
		     unsigned long haddr, bool swap_ok, bool *swapped)
{
	bool writable = false;

	for (unsigned long i = 0; i < HPAGE_PMD_NR; i++) {
		pte_t entry = table[i];
		struct page *page;

		if (pte_none(entry) || is_zero_pte(entry))
			continue;
		if (is_swap_pte(entry)) {
			if (!swap_ok)
				return SCAN_PAGE_LRU;
			*swapped = true;
			continue;
		}
		page = vm_normal_page(vma, haddr + i * PAGE_SIZE, entry);
		if (!page)
			return SCAN_PAGE_NULL;
		if (!PageAnon(page))
			return SCAN_PAGE_ANON;
		if (page_count(page) != total_mapcount(page) +
					(int)PageSwapCache(page))
			return SCAN_PAGE_COUNT;
		writable |= pte_write(entry);
	}
	return writable ? SCAN_SUCCEED : SCAN_PAGE_RO;
}

/* Reads each swap PTE of table back in (Linux's
 * __collapse_huge_page_swapin): do_swap_page, as a read fault would.
 * mmap_lock held; takes and drops the PTE lock. */
static int swapin_ptes(struct vm_area_struct *vma, pte_t *table,
		       unsigned long haddr)
{
	spinlock_t *ptl = pte_lockptr(table);
	vm_fault_t ret = 0;

	spin_lock(ptl);
	for (unsigned long i = 0; i < HPAGE_PMD_NR && !ret; i++)
		if (is_swap_pte(table[i]))
			ret = do_swap_page(vma, haddr + i * PAGE_SIZE,
					   &table[i], 0) &
			      (VM_FAULT_OOM | VM_FAULT_SIGBUS);
	spin_unlock(ptl);
	return ret ? SCAN_FAIL : SCAN_SUCCEED;
}

/*
 * The 4 KiB at table[i] into hpage's page i, and the PTE cleared: a
 * none or zero PTE gives zeroes; a page, its contents, and it loses
 * this mapping (its reference goes to old[] for the caller to drop).
 * RSS: every PTE is anonymous memory now. PTE lock held.
 */
static void collapse_pte(struct vm_area_struct *vma, pte_t *pte,
			 unsigned long addr, void *to, struct page **old,
			 long rss[NR_MM_COUNTERS])
{
	pte_t entry = ptep_get_and_clear(pte);
	struct page *page = vm_normal_page(vma, addr, entry);

	rss[MM_ANONPAGES]++;
	if (!page) {
		if (is_zero_pte(entry))
			zero_pte_count(rss, entry, -1);
		clear_page(to);
		return;
	}
	copy_page(to, page_address(page));
	rss[mm_counter(page)]--;
	page_remove_rmap(page);
	*old = page;
}

/*
 * One 2 MiB range, [haddr, haddr + 2 MiB) of vma, into a THP (Linux's
 * hpage_collapse_scan_pmd, then collapse_huge_page): checked, the THP
 * allocated, swap read in, the PMD cleared and flushed so that no CPU
 * writes the old pages any more, checked again, copied, mapped. Called
 * by madvise_collapse with mmap_lock held for writing (so no fault,
 * reclaim or swapoff walks these PTEs meanwhile); takes and drops the
 * PTE and PMD locks. Returns an enum scan_result.
 */
static int collapse_huge_page(struct vm_area_struct *vma, unsigned long haddr)
{
	struct mm_struct *mm = vma->vm_mm;
	long rss[NR_MM_COUNTERS] = { 0 };
	pmd_t *pmd = pmd_lookup(mm, haddr);
	struct page *hpage, **old;
	spinlock_t *ptl;
	bool swapped = false;
	pte_t *table;
	int result;

	if (!pmd || pmd_none(*pmd))
		return SCAN_PMD_NULL;
	if (pmd_leaf(*pmd))
		return SCAN_PMD_MAPPED;
	table = pte_lookup(mm, haddr);
	ptl = pte_lockptr(table);
	spin_lock(ptl);
	result = scan_ptes(vma, table, haddr, true, &swapped);
	spin_unlock(ptl);
	if (result != SCAN_SUCCEED)
		return result;
	hpage = alloc_compound_pages(GFP_HIGHUSER, HPAGE_PMD_ORDER);
	old = hpage ? (void *)__get_free_page(GFP_KERNEL | __GFP_ZERO) : NULL;
	if (!old) {
		if (hpage)
			put_page(hpage);
		count_vm_event(THP_COLLAPSE_ALLOC_FAILED);
		return SCAN_ALLOC_HUGE_PAGE_FAIL;
	}
	count_vm_event(THP_COLLAPSE_ALLOC);
	if (swapped)
		result = swapin_ptes(vma, table, haddr);
	if (result == SCAN_SUCCEED) {
		swapped = false;
		spin_lock(ptl);
		result = scan_ptes(vma, table, haddr, false, &swapped);
		spin_unlock(ptl);
	}
	if (result != SCAN_SUCCEED) {
		put_page(hpage);
		free_page((unsigned long)old);
		return result;
	}
	/* Linux's pmdp_collapse_flush: the table leaves the tree first. */
	spin_lock(pmd_lockptr(pmd));
	set_pmd(pmd, __pmd(0));
	spin_unlock(pmd_lockptr(pmd));
	flush_tlb_mm_range(mm, haddr, haddr + HPAGE_PMD_SIZE);
	spin_lock(ptl);
	for (unsigned long i = 0; i < HPAGE_PMD_NR; i++)
		collapse_pte(vma, &table[i], haddr + i * PAGE_SIZE,
			     page_address(hpage + i), &old[i], rss);
	spin_unlock(ptl);
	set_huge_pmd_collapsed(vma, pmd, hpage, table);
	add_mm_rss_vec(mm, rss);
	count_vm_events(ZERO_PAGE_UNMAP, -rss[MM_ZEROPAGES]);
	/* Linux's free_page_and_swap_cache, with no spinlock held. */
	for (unsigned long i = 0; i < HPAGE_PMD_NR; i++) {
		if (!old[i])
			continue;
		if (PageSwapCache(old[i]))
			try_to_free_swap(old[i]);
		put_page(old[i]);
	}
	free_page((unsigned long)old);
	return SCAN_SUCCEED;
}

/* madvise_collapse_errno: no memory, ENOMEM; a state that may pass,
 * EAGAIN; the range itself, EINVAL. */
static long collapse_errno(int result)
{
	if (result == SCAN_ALLOC_HUGE_PAGE_FAIL)
		return -ENOMEM;
	return result == SCAN_PAGE_LRU ? -EAGAIN : -EINVAL;
}

/*
 * MADV_COLLAPSE of [start, end) inside vma, as Linux 6.1: each whole
 * aligned 2 MiB in it collapses in turn; 0 if every one ends huge (a
 * range without one asks for nothing: 0; within one block, EINVAL),
 * else the errno of the last that did not. A range the scan refuses is
 * skipped; a failed allocation or swap-in, or a page not anonymous,
 * stops the walk. mmap_lock held for writing (Linux takes it for
 * reading to scan, and for writing to collapse).
 */
long madvise_collapse(struct vm_area_struct *vma, unsigned long start,
		      unsigned long end)
{
	unsigned long hstart = ALIGN_UP(start, HPAGE_PMD_SIZE);
	unsigned long hend = end & HPAGE_PMD_MASK, thps = 0, addr;
	int result, last_fail = SCAN_FAIL;

	if (!thp_vma_collapsible(vma))
		return -EINVAL;
	for (addr = hstart; addr < hend; addr += HPAGE_PMD_SIZE) {
		result = collapse_huge_page(vma, addr);
		if (result == SCAN_SUCCEED || result == SCAN_PMD_MAPPED) {
			thps++;
			continue;
		}
		last_fail = result;
		if (result == SCAN_ALLOC_HUGE_PAGE_FAIL ||
		    result == SCAN_PAGE_ANON || result == SCAN_FAIL)
			break;
	}
	return thps == (hend - hstart) >> PMD_SHIFT ? 0 :
	       collapse_errno(last_fail);
}
