/* mm/internal.h — what the files of mm/ share with each other and no one
 * else (Linux's mm/internal.h): VMA list helpers, the flush range of a
 * walk, range_mapped, vma_modify, and the counts of a zero-page PTE
 * (the fault's, fork's, zap's and /dev/zero's: inlined into the fault). */
#ifndef ZPK_MM_INTERNAL_H
#define ZPK_MM_INTERNAL_H

#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/zero_page.h>

static inline struct vm_area_struct *vma_of(struct list_head *l)
{
	return list_entry(l, struct vm_area_struct, vm_list);
}

/* The VMA after (before) vma in mm's sorted list, or NULL: mmap_lock
 * held. */
static inline struct vm_area_struct *vma_next(struct mm_struct *mm,
					      struct vm_area_struct *vma)
{
	if (vma->vm_list.next == &mm->mmap)
		return NULL;
	return vma_of(vma->vm_list.next);
}

static inline struct vm_area_struct *vma_prev(struct mm_struct *mm,
					      struct vm_area_struct *vma)
{
	if (vma->vm_list.prev == &mm->mmap)
		return NULL;
	return vma_of(vma->vm_list.prev);
}

/* PROT_* and VM_READ/WRITE/EXEC have the same bits, as in Linux. */
static inline unsigned long calc_vm_prot_bits(unsigned long prot)
{
	return prot & (VM_READ | VM_WRITE | VM_EXEC);
}

/* The range of PTEs a walk changed (to flush at its end: mprotect, fork)
 * grows to take in [addr, +PAGE_SIZE). */
static inline void changed_range_add(unsigned long *start,
				     unsigned long *end, unsigned long addr)
{
	if (*end == 0)
		*start = addr;
	*end = addr + PAGE_SIZE;
}

/* Whether the VMAs cover [start, end) without holes, as madvise and
 * mlock require (-ENOMEM otherwise). mmap_lock held. */
bool range_mapped(struct mm_struct *mm, unsigned long start,
		  unsigned long end);

/* Gives [start, end), inside vma, newflags, the memory policy pol and
 * the userfaultfd ctx: split off, set, merged with equal neighbours (the
 * PTEs rewritten by change_protection if the protection changed). 0 or
 * -ENOMEM; vma may be gone after it. mmap_lock held for writing. */
int vma_modify(struct mm_struct *mm, struct vm_area_struct *vma,
	       unsigned long start, unsigned long end,
	       unsigned long newflags, struct mempolicy pol,
	       struct userfaultfd_ctx *ctx);

/* A PTE of zero_pfn: made by a read fault under special or refcount. */
static __fault_inline __maybe_unused bool is_zero_pte(pte_t pte)
{
	/* LAB(zero-page-whole) BEGIN task 1: which PTEs map the zero page */
	return pte_present(pte) && is_zero_pfn(pte_pfn(pte));
	/* LAB(zero-page-whole) END: (void)pte; return false; */
}

/* One more zero-page PTE in mm, of the kind entry is (special or not). */
static __fault_inline __maybe_unused void zero_pte_add(struct mm_struct *mm,
						       pte_t entry)
{
	/* LAB(zero-page-whole) BEGIN task 1: count it in RssZero */
	inc_mm_counter(mm, MM_ZEROPAGES);
	/* LAB(zero-page-whole) END */
	/* LAB(zero-page-whole) BEGIN task 2: refcount: a reference, and RssFile */
	if (pte_special(entry))
		return;
	/* 2.6.23: a reference, and counted as a file page (file_rss, as
	 * KAMEZAWA's "ZERO PAGE again" RFC, linux-mm, July 2009, kept it). */
	zero_page_get();
	inc_mm_counter(mm, MM_FILEPAGES);
	/* LAB(zero-page-whole) END: (void)mm; (void)entry; */
}

/* One zero-page PTE of mm gone (zap or COW): undoes zero_pte_add. */
static __fault_inline __maybe_unused void
zero_pte_remove(struct mm_struct *mm, pte_t entry)
{
	/* LAB(zero-page-whole) BEGIN task 1: and out of RssZero */
	dec_mm_counter(mm, MM_ZEROPAGES);
	/* LAB(zero-page-whole) END */
	/* LAB(zero-page-whole) BEGIN task 2: refcount: give both back */
	if (pte_special(entry))
		return;
	dec_mm_counter(mm, MM_FILEPAGES);
	zero_page_put();
	/* LAB(zero-page-whole) END: (void)mm; (void)entry; */
}

/* zero_pte_add (delta 1) or zero_pte_remove (-1) for a range walk that
 * counts into rss[] and adds it with add_mm_rss_vec at the end. */
static inline __maybe_unused void zero_pte_count(long rss[NR_MM_COUNTERS],
						 pte_t entry, int delta)
{
	/* LAB(zero-page-whole) BEGIN task 1: the same, into a walk's rss[] */
	rss[MM_ZEROPAGES] += delta;
	/* LAB(zero-page-whole) END */
	/* LAB(zero-page-whole) BEGIN task 2: refcount: the same in rss[] */
	if (pte_special(entry))
		return;
	rss[MM_FILEPAGES] += delta;
	if (delta > 0)
		zero_page_get();
	else
		zero_page_put();
	/* LAB(zero-page-whole) END: (void)rss; (void)entry; (void)delta; */
}

#endif
