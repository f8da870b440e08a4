/* asm/tlbflush.h — dropping stale user translations from this CPU's TLB
 * after PTEs change (Linux's arch/x86/include/asm/tlbflush.h). */
#ifndef ASM_TLBFLUSH_H
#define ASM_TLBFLUSH_H

#include <asm/pgtable.h>

struct mm_struct;

#define TLB_FLUSH_ALL	(~0UL)

/*
 * The rules, as on x86 Linux: a PTE that goes from not present to present
 * needs no flush (the TLB never caches a not-present entry), nor one made
 * less strict by a fault on it (the fault dropped the entry). A present PTE
 * that is cleared, loses a permission or changes its pfn must be flushed
 * before the page it mapped can be freed or reused.
 */

/* Ranges longer than this many pages flush the whole TLB (arch/x86/mm/
 * tlb.c: 33; beyond it one CR3 reload is cheaper than invlpg per page). */
extern unsigned long tlb_single_page_flush_ceiling;

#ifndef HOST_TEST
/*
 * mm's translations of [start, end) gone from every CPU: this one if mm
 * is loaded here, and each other CPU in mm_cpumask(mm), through one IPI
 * each, waited for (Linux's flush_tlb_mm_range and flush_tlb_multi).
 * Interrupts on (it waits for other CPUs); spinlocks may be held.
 */
void flush_tlb_mm_range(struct mm_struct *mm, unsigned long start,
			unsigned long end);
void flush_tlb_local(void);
/*
 * Loads next's page tables on this CPU, or init_pgd's for NULL (Linux's
 * switch_mm_irqs_off and leave_mm): this CPU joins next's mm_cpumask
 * before it can cache one of its translations, and leaves the previous
 * mm's once the CR3 write dropped them. Interrupts off.
 */
void switch_mm(struct mm_struct *next);
#else
static inline void flush_tlb_mm_range(struct mm_struct *mm,
				      unsigned long start, unsigned long end)
{
	(void)mm;
	(void)start;
	(void)end;
}
#endif

/* All of mm's user translations (fork's end, exit). */
#define flush_tlb_mm(mm)	flush_tlb_mm_range(mm, 0UL, TLB_FLUSH_ALL)
/* [start, end) of vma's mm; the single-page form is Linux's flush_tlb_page
 * (vma, addr), a name pgtable.h's invlpg primitive holds here. */
#define flush_tlb_range(vma, start, end) \
	flush_tlb_mm_range((vma)->vm_mm, start, end)

#endif
