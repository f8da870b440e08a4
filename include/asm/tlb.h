/* asm/tlb.h — the mmu_gather: a zap's TLB flush and the freeing of its
 * pages, batched (Linux's include/asm-generic/tlb.h; mm/mmu_gather.c). */
#ifndef ASM_TLB_H
#define ASM_TLB_H

#include <asm/tlbflush.h>
#include <zpk/list.h>
#include <zpk/types.h>

struct mm_struct;
struct page;

/* Pages a gather holds before it must flush and free them (Linux's
 * MMU_GATHER_BUNDLE is 8 on the stack, then a page of them). */
#define MMU_GATHER_BUNDLE	64

/*
 * One zap (munmap, MADV_DONTNEED, exit): PTEs are cleared first, the TLB
 * is flushed once for the range [start, end) they covered, and only then
 * are their pages freed, so that no stale translation can reach a page
 * that was reused. fullmm: the whole mm is going away (exit_mmap).
 */
struct mmu_gather {
	struct mm_struct *mm;
	unsigned long start, end;	/* cleared, not yet flushed */
	bool fullmm;
	unsigned int nr;		/* pages[0..nr) wait for the flush */
	struct page *pages[MMU_GATHER_BUNDLE];
	struct list_head tables;	/* page-table pages, the same */
};

void tlb_gather_mmu(struct mmu_gather *tlb, struct mm_struct *mm);
void tlb_gather_mmu_fullmm(struct mmu_gather *tlb, struct mm_struct *mm);
/* Flushes the range gathered so far, if any. */
void tlb_flush_mmu_tlbonly(struct mmu_gather *tlb);
/* Flushes, then frees the pages held. */
void tlb_flush_mmu(struct mmu_gather *tlb);
/* The end of the zap: tlb_flush_mmu. Nothing is held afterwards. */
void tlb_finish_mmu(struct mmu_gather *tlb);
/* Holds the caller's reference to page until the flush; a full batch
 * flushes and frees at once. */
void tlb_remove_page(struct mmu_gather *tlb, struct page *page);
/*
 * A PTE table taken out of the tree (free_pgd_range) at addr, freed
 * after the flush (Linux's tlb_remove_table): a CPU's paging-structure
 * cache may still point at it. Any INVLPG drops those caches whole
 * (Intel SDM 4.10.4.1), so the flush of the pages zapped does; if none
 * was, addr's page is flushed.
 */
void tlb_remove_table(struct mmu_gather *tlb, void *table,
		      unsigned long addr);

/* The range to flush grows to take in [address, address + size). */
static inline void __tlb_adjust_range(struct mmu_gather *tlb,
				      unsigned long address,
				      unsigned long size)
{
	if (address < tlb->start)
		tlb->start = address;
	if (address + size > tlb->end)
		tlb->end = address + size;
}

/* A present PTE at address was cleared: it must be flushed. */
static inline void tlb_remove_tlb_entry(struct mmu_gather *tlb, pte_t *ptep,
					unsigned long address)
{
	(void)ptep;
	__tlb_adjust_range(tlb, address, PAGE_SIZE);
}

#endif
