/* arch/x86_64/tlb.c — TLB flushes for user address ranges (Linux's
 * arch/x86/mm/tlb.c): invlpg per page up to a ceiling, else a CR3 reload. */
#include <asm/io.h>
#include <asm/tlbflush.h>
#include <zpk/mm.h>
#include <zpk/vmstat.h>

unsigned long tlb_single_page_flush_ceiling = 33;

/* Drops every non-global translation: all of user space (user PTEs are
 * never _PAGE_GLOBAL, and there is no PCID). */
void flush_tlb_local(void)
{
	write_cr3(read_cr3());
	count_vm_event(NR_TLB_LOCAL_FLUSH_ALL);
}

/* mm's tables are the ones in this CPU's CR3 (Linux: cpu_tlbstate.
 * loaded_mm). Kernel threads borrow whatever is loaded, so this asks the
 * CPU, not current. */
static bool mm_is_loaded(struct mm_struct *mm)
{
	return mm->pgd && (read_cr3() & PTE_PFN_MASK) == __pa(mm->pgd);
}

/*
 * Flushes mm's translations of [start, end) (page aligned; end may be
 * TLB_FLUSH_ALL) from this CPU. An mm not in CR3 has none cached: a CR3
 * write flushed them when it was switched out, and will not bring them
 * back. Called after the PTEs changed and before what they mapped is
 * freed or reused.
 */
void flush_tlb_mm_range(struct mm_struct *mm, unsigned long start,
			unsigned long end)
{
	unsigned long addr;

	/* SMP: here Linux sends the flush to the other CPUs in
	 * mm_cpumask(mm) (flush_tlb_multi, an IPI each) and waits. */
	if (!mm_is_loaded(mm))
		return;
	if (end == TLB_FLUSH_ALL ||
	    (end - start) >> PAGE_SHIFT > tlb_single_page_flush_ceiling) {
		flush_tlb_local();
		return;
	}
	for (addr = start; addr < end; addr += PAGE_SIZE) {
		flush_tlb_page(addr);
		count_vm_event(NR_TLB_LOCAL_FLUSH_ONE);
	}
}
