/* arch/x86_64/tlb.c — TLB flushes for user address ranges (Linux's
 * arch/x86/mm/tlb.c): invlpg per page up to a ceiling, else a CR3 reload;
 * shootdowns by IPI to the other CPUs of mm_cpumask; switch_mm. */
#include <asm/io.h>
#include <asm/tlbflush.h>
#include <zpk/mm.h>
#include <zpk/mmu.h>
#include <zpk/sched.h>
#include <zpk/smp.h>
#include <zpk/vmstat.h>

unsigned long tlb_single_page_flush_ceiling = 33;

/* Drops every non-global translation: all of user space (user PTEs are
 * never _PAGE_GLOBAL, and there is no PCID). */
void flush_tlb_local(void)
{
	write_cr3(read_cr3());
	count_vm_event(NR_TLB_LOCAL_FLUSH_ALL);
}

/* [start, end) from this CPU's TLB: invlpg per page up to the ceiling,
 * beyond it (or TLB_FLUSH_ALL) one CR3 reload. */
static void flush_tlb_range_local(unsigned long start, unsigned long end)
{
	unsigned long addr;

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

void switch_mm(struct mm_struct *next)
{
	struct mm_struct *prev = this_cpu_read(loaded_mm);
	int cpu = smp_processor_id();

	if (prev == next)
		return;
	if (next)
		cpumask_set_cpu(cpu, mm_cpumask(next));
	write_cr3(__pa(next ? next->pgd : init_pgd));
	if (prev)
		cpumask_clear_cpu(cpu, mm_cpumask(prev));
	this_cpu_write(loaded_mm, next);
}

/* What one flush asks of the other CPUs (Linux's flush_tlb_info). */
struct flush_tlb_info {
	struct mm_struct *mm;
	unsigned long start, end;
};

/*
 * One CPU's part of a flush (Linux's flush_tlb_func), interrupts off: on
 * the CPU that changed the PTEs, and by IPI on the others. A CPU that
 * switched away meanwhile has nothing left to flush. A lazy one (its idle
 * task or a kernel thread kept the last user mm loaded, or an exiting
 * task dropped its mm and now runs its last mmput) loads init_pgd and
 * leaves mm_cpumask instead: no more IPIs for that mm (Linux's leave_mm),
 * and exit_mmap may free its tables and mm itself go away under it.
 * Kernel threads borrow whatever is loaded, so this asks loaded_mm (what
 * is in CR3), not current.
 */
static void flush_tlb_this_cpu(const struct flush_tlb_info *f)
{
	if (this_cpu_read(loaded_mm) != f->mm)
		return;
	if (current->mm != f->mm) {
		switch_mm(NULL);
		return;
	}
	flush_tlb_range_local(f->start, f->end);
}

/* The IPI's work on another CPU. */
static void flush_tlb_func(void *arg)
{
	count_vm_event(NR_TLB_REMOTE_FLUSH_RECEIVED);
	flush_tlb_this_cpu(arg);
}

/*
 * Flushes mm's translations of [start, end) (page aligned; end may be
 * TLB_FLUSH_ALL) from every CPU that may hold them. An mm not in a CPU's
 * CR3 has none cached there: a CR3 write flushed them when it was
 * switched out, and will not bring them back. Called after the PTEs
 * changed and before what they mapped is freed or reused: one call for a
 * whole range, so one IPI per CPU whatever its length.
 */
void flush_tlb_mm_range(struct mm_struct *mm, unsigned long start,
			unsigned long end)
{
	struct flush_tlb_info info = { .mm = mm, .start = start, .end = end };
	struct cpumask others = { READ_ONCE(mm_cpumask(mm)->bits) };
	unsigned long flags;

	cpumask_clear_cpu(smp_processor_id(), &others);
	local_irq_save(flags);
	flush_tlb_this_cpu(&info);
	local_irq_restore(flags);
	if (cpumask_empty(&others))
		return;
	count_vm_event(NR_TLB_REMOTE_FLUSH);
	smp_call_function_many(&others, flush_tlb_func, &info, true);
}
