/* mm/mmu_gather.c — the mmu_gather (asm/tlb.h): a zap's PTEs are flushed
 * from the TLB once per range, and its pages freed only after that. */
#include <asm/tlb.h>
#include <zpk/mm.h>
#include <zpk/mman.h>
#include "internal.h"

/* Nothing gathered: the next cleared PTE starts the range. */
static void __tlb_reset_range(struct mmu_gather *tlb)
{
	tlb->start = TASK_SIZE;
	tlb->end = 0;
}

/* Starts a zap of part of mm (munmap, MADV_DONTNEED). */
void tlb_gather_mmu(struct mmu_gather *tlb, struct mm_struct *mm)
{
	tlb->mm = mm;
	tlb->fullmm = false;
	tlb->nr = 0;
	INIT_LIST_HEAD(&tlb->tables);
	__tlb_reset_range(tlb);
}

/* Starts the zap of all of mm (exit_mmap): the flush is of the whole mm,
 * which costs nothing when mm is no longer in CR3, as at exit. */
void tlb_gather_mmu_fullmm(struct mmu_gather *tlb, struct mm_struct *mm)
{
	tlb_gather_mmu(tlb, mm);
	tlb->fullmm = true;
}

void tlb_flush_mmu_tlbonly(struct mmu_gather *tlb)
{
	if (!tlb->end)
		return;
	if (tlb->fullmm)
		flush_tlb_mm(tlb->mm);
	else
		flush_tlb_mm_range(tlb->mm, tlb->start, tlb->end);
	__tlb_reset_range(tlb);
}

/* Drops the references the batch held; the last one frees the page. */
static void tlb_batch_pages_flush(struct mmu_gather *tlb)
{
	unsigned int i;

	for (i = 0; i < tlb->nr; i++)
		put_page(tlb->pages[i]);
	tlb->nr = 0;
}

void tlb_flush_mmu(struct mmu_gather *tlb)
{
	struct page *pt, *tmp;

	tlb_flush_mmu_tlbonly(tlb);
	tlb_batch_pages_flush(tlb);
	list_for_each_entry_safe(pt, tmp, &tlb->tables, lru) {
		list_del(&pt->lru);
		pgtable_free(page_address(pt));
	}
}

void tlb_finish_mmu(struct mmu_gather *tlb)
{
	tlb_flush_mmu(tlb);
}

void tlb_remove_page(struct mmu_gather *tlb, struct page *page)
{
	tlb->pages[tlb->nr++] = page;
	if (tlb->nr == MMU_GATHER_BUNDLE)
		tlb_flush_mmu(tlb);
}

void tlb_remove_table(struct mmu_gather *tlb, void *table,
		      unsigned long addr)
{
	list_add(&virt_to_page(table)->lru, &tlb->tables);
	if (!tlb->end)
		__tlb_adjust_range(tlb, addr, PAGE_SIZE);
}
