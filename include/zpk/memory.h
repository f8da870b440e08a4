/* zpk/memory.h — user page tables and page faults (Linux's mm/memory.c):
 * the pgd of an mm, the one PTE walker, the RSS counters, the fault path
 * (anonymous first touch, copy-on-write), zap, fork's copy. */
#ifndef ZPK_MEMORY_H
#define ZPK_MEMORY_H

#include <asm/pgtable.h>
#include <zpk/mm.h>
#include <zpk/mm_types.h>
#include <zpk/spinlock.h>
#include <zpk/vmstat.h>

/* handle_mm_fault's flags and results: Linux's values. */
#define FAULT_FLAG_WRITE	0x001
#define FAULT_FLAG_USER		0x040
#define FAULT_FLAG_INSTRUCTION	0x100
#define FAULT_FLAG_REMOTE	0x080	/* get_user_pages, not the CPU */
/* zpk's own, for get_user_pages: FOLL_FORCE may write a private mapping
 * that is not VM_WRITE (a private copy); FOLL_NOZERO wants a real page. */
#define FAULT_FLAG_FORCE	0x10000
#define FAULT_FLAG_NOZERO	0x20000
/* UFFDIO_ZEROPAGE's read: the userfaultfd's reader fills the page. */
#define FAULT_FLAG_UFFD_FILL	0x40000

#define VM_FAULT_OOM		0x0001
#define VM_FAULT_SIGBUS		0x0002
/* Done, but it waited for a read from swap: a major fault (maj_flt). */
#define VM_FAULT_MAJOR		0x0004
#define VM_FAULT_SIGSEGV	0x0040
/* A userfaultfd's reader resolved the fault, or a signal came first:
 * nothing is mapped, the caller looks the VMA up again and retries. */
#define VM_FAULT_RETRY		0x0400
/* The PMD level left the fault to the PTE level (Linux's; its value is
 * zpk's VM_FAULT_UFFD_MISSING here). */
#define VM_FAULT_FALLBACK	0x4000
/* The fault is a userfaultfd reader's to resolve (do_anonymous_page,
 * do_wp_page, shmem_userfault see it under the PTE lock): nothing is
 * mapped; handle_mm_fault hands it over (handle_userfault, for the one
 * VM_UFFD_* reason) once that lock is dropped, since it sleeps. */
#define VM_FAULT_UFFD_MISSING	0x0800
#define VM_FAULT_UFFD_WP	0x1000
#define VM_FAULT_UFFD_MINOR	0x2000
#define VM_FAULT_USERFAULT	(VM_FAULT_UFFD_MISSING | VM_FAULT_UFFD_WP | \
				 VM_FAULT_UFFD_MINOR)

/*
 * The one rule for whether an access of kind flags (FAULT_FLAG_WRITE,
 * _INSTRUCTION, else a read; _FORCE, _REMOTE) may use vma at all: true
 * means refuse it. Linux codes it twice, as x86's access_error() and
 * GUP's check_vma_flags(); the fault path and mm/gup.c both call this
 * (inline: it is on every fault).
 */
static inline bool access_error(const struct vm_area_struct *vma,
				unsigned int flags)
{
	unsigned long vm_flags = vma->vm_flags;
	bool force = flags & FAULT_FLAG_FORCE;

	/* FOLL_FORCE may write a private mapping it could make writable:
	 * the write lands in a private copy, never in the file. */
	if (flags & FAULT_FLAG_WRITE)
		return !(vm_flags & VM_WRITE) &&
		       !(force && is_cow_mapping(vm_flags));
	if (flags & FAULT_FLAG_INSTRUCTION)
		return !(vm_flags & VM_EXEC);
	/* The CPU reads any accessible VMA (x86 has no write- or exec-only
	 * PTEs); get_user_pages wants VM_READ, or FOLL_FORCE and VM_MAYREAD. */
	if (!(flags & FAULT_FLAG_REMOTE) &&
	    (vm_flags & (VM_READ | VM_WRITE | VM_EXEC)))
		return false;
	if (vm_flags & VM_READ)
		return false;
	return !(force && (vm_flags & VM_MAYREAD));
}

/*
 * ---- RSS counters: the one API; every rise updates hiwater_rss ----
 * Per-mm counters kept as one share per CPU (struct mm_rss_cpu), each
 * written only by its CPU and summed at every read: faults of one mm on
 * several CPUs (threads, a vfork child) add at once without passing a
 * line between them, and a read is exact once the adds it races with
 * are done. Linux 6.1 keeps per-task deltas folded in every 64 faults,
 * so its counters lag; 6.2's per-CPU counters are read unsummed.
 */

/* A counter: the CPUs' shares added up (one may be negative: a page
 * counted on one CPU and uncounted on another). */
static __fault_inline long mm_counter_sum(const struct mm_struct *mm,
					  int member)
{
	long v = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		v += READ_ONCE(mm->rss_stat[cpu].count[member]);
	return v;
}

/* This CPU's share moves by value: one add instruction on a line only
 * this CPU writes (Linux's this_cpu_add), so no lock and no atomic: the
 * kernel is not preempted, and no interrupt handler counts RSS. */
static __fault_inline void mm_rss_add(struct mm_struct *mm, int member,
				      long value)
{
	this_cpu_add_long(&mm->rss_stat[smp_processor_id()].count[member],
			  value);
}

/* Resident pages, as Linux counts them: not MM_ZEROPAGES, so a special
 * zero-page PTE is not RSS; a refcounted one (zero_page=refcount) is, in
 * MM_FILEPAGES, as 2.6.23 counted it. */
static __fault_inline unsigned long get_mm_rss(const struct mm_struct *mm)
{
	long rss = mm_counter_sum(mm, MM_FILEPAGES) +
		   mm_counter_sum(mm, MM_ANONPAGES) +
		   mm_counter_sum(mm, MM_SHMEMPAGES);

	return rss < 0 ? 0 : (unsigned long)rss;
}

/* The peak only grows: a compare-and-swap, so that two CPUs that saw
 * different sums leave the larger. */
static __fault_inline void update_hiwater_rss(struct mm_struct *mm)
{
	unsigned long rss = get_mm_rss(mm);
	unsigned long old = READ_ONCE(mm->hiwater_rss);

	while (old < rss &&
	       !__atomic_compare_exchange_n(&mm->hiwater_rss, &old, rss, false,
					    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		;
}

/* The peak starts again from now (clear_refs 5, fork's new mm). A fault
 * on another CPU may have grown the RSS and the peak between our sum and
 * the store: the second look puts its peak back. */
static inline void reset_mm_hiwater_rss(struct mm_struct *mm)
{
	WRITE_ONCE(mm->hiwater_rss, get_mm_rss(mm));
	update_hiwater_rss(mm);
}

static inline unsigned long get_mm_counter(const struct mm_struct *mm,
					   int member)
{
	long v = mm_counter_sum(mm, member);

	return v < 0 ? 0 : (unsigned long)v;
}

static __fault_inline void add_mm_counter(struct mm_struct *mm, int member,
					  long value)
{
	/* LAB(rss) BEGIN task 1: move the counter, and the high-water mark */
	mm_rss_add(mm, member, value);
	/* The peak is passed only on the way up, and RssZero is not RSS. */
	if (value > 0 && member != MM_ZEROPAGES)
		update_hiwater_rss(mm);
	/* LAB(rss) END: (void)mm; (void)member; (void)value; */
}

/*
 * A PTE table's worth of changes at once (Linux's add_mm_rss_vec): zap
 * and fork count into rss[] as they go and add it here before the
 * mmap_lock goes, so that mm_verify (which takes it for writing) finds
 * counters and page tables agreeing.
 */
static inline void add_mm_rss_vec(struct mm_struct *mm,
				  const long rss[NR_MM_COUNTERS])
{
	for (int i = 0; i < NR_MM_COUNTERS; i++)
		if (rss[i])
			add_mm_counter(mm, i, rss[i]);
}

static __fault_inline void inc_mm_counter(struct mm_struct *mm, int member)
{
	add_mm_counter(mm, member, 1);
}

static __fault_inline void dec_mm_counter(struct mm_struct *mm, int member)
{
	add_mm_counter(mm, member, -1);
}

/* ---- page tables ---------------------------------------------------- */

/*
 * A zeroed pgd page for mm, with init_pgd's kernel half (entries
 * 256..511) copied in (skipped while init_pgd is NULL). Sets mm->pgd and
 * returns it, or NULL (mm->pgd untouched) if out of memory. Counted in
 * NR_PAGE_TABLE_PAGES, not in mm->nr_ptes.
 */
pgd_t *pgd_alloc(struct mm_struct *mm);
/*
 * Frees every page-table page of the lower (user) half and the pgd; the
 * PTEs must already be zapped. mm->pgd becomes NULL, mm->nr_ptes 0, and
 * NR_PAGE_TABLE_PAGES drops by the same amount.
 */
void free_pgtables(struct mm_struct *mm);
/*
 * munmap's part of Linux's free_pgtables (free_pgd_range, at the PTE
 * level): the PTE tables of [addr, end) whose whole 2 MiB lies in
 * [floor, ceiling), the gap between the VMAs left around it, go back to
 * the allocator, so that a later fault there finds the PMD none (a THP
 * needs it). A table with an entry left stays. mm's mmap_lock held for
 * writing, the PTEs zapped into tlb; the tables are freed after its
 * flush (tlb_remove_table).
 */
void free_pgd_range(struct mmu_gather *tlb, unsigned long addr,
		    unsigned long end, unsigned long floor,
		    unsigned long ceiling);

/* The PTE for user addr, allocating missing tables (NULL: no memory, or
 * not a user address, or no pgd). */
pte_t *pte_alloc_map(struct mm_struct *mm, unsigned long addr);
/* The PTE for user addr if its tables exist, else NULL. */
pte_t *pte_lookup(struct mm_struct *mm, unsigned long addr);
/* pte_lookup, returning with the PTE's lock (*ptlp) held (Linux's
 * pte_offset_map_lock); pte_unmap_unlock drops it. */
pte_t *pte_lookup_lock(struct mm_struct *mm, unsigned long addr,
		       spinlock_t **ptlp);
void pte_unmap_unlock(pte_t *pte, spinlock_t *ptl);

/* walk_page_range's callback: one existing, non-none PTE at addr (it may
 * change it), called with the PTE's lock held: it must not sleep. */
typedef int (*pte_walk_fn)(pte_t *pte, unsigned long addr, void *priv);
/* A huge PMD on the way is split first (fn may change PTEs). */
int walk_page_range(struct mm_struct *mm, unsigned long start,
		    unsigned long end, pte_walk_fn fn, void *priv);
/* walk_page_range for walks that only read: a huge PMD stays, and fn
 * gets a copy of a PTE for each 4 KiB of it (pte_pmd_mapped), under the
 * PMD's lock; what fn writes there is lost. */
int walk_page_range_nosplit(struct mm_struct *mm, unsigned long start,
			    unsigned long end, pte_walk_fn fn, void *priv);
/* A walk_page_range_nosplit copy of 4 KiB of a huge PMD (_PAGE_PSE, the
 * PAT bit in a 4 KiB PTE, which zpk never sets). */
static inline bool pte_pmd_mapped(pte_t pte)
{
	return pte_val(pte) & _PAGE_PSE;
}

/* The PTE protection bits for vm_flags: user, RW iff VM_WRITE, NX unless
 * VM_EXEC; with none of VM_READ/WRITE/EXEC, _PAGE_PROTNONE (not present to
 * the CPU). Linux's protection_map lookup. */
pgprot_t vm_get_page_prot(unsigned long vm_flags);

/*
 * The struct page a present PTE maps, or NULL if it has none that is
 * refcounted: special PTEs, zero_pfn, pfns outside mem_map. The single
 * place that decides what is a "normal" page. vma may be NULL.
 */
struct page *vm_normal_page(struct vm_area_struct *vma, unsigned long addr,
			    pte_t pte);

/* ---- faults --------------------------------------------------------- */

/*
 * Resolves a fault at address in vma (NULL, or a vma not containing
 * address, is VM_FAULT_SIGSEGV, as is an access vm_flags forbid; a file
 * page past EOF is VM_FAULT_SIGBUS). 0 when the access can be retried.
 * Counts PGFAULT. Called with vma's mm's mmap_lock held for reading (or
 * writing); takes the PTE's lock (and lets it go to allocate).
 */
vm_fault_t handle_mm_fault(struct vm_area_struct *vma, unsigned long address,
			   unsigned int flags);

/* ---- ranges --------------------------------------------------------- */

/* Clears the PTEs of [start, end) in vma, dropping the pages' mapcounts,
 * references and RSS counters. Tables stay (free_pgtables). */
void zap_page_range(struct vm_area_struct *vma, unsigned long start,
		    unsigned long end);
/* The same, of the file's pages only: a private mapping keeps its copies
 * (a punched hole's unmap_mapping_pages). */
void zap_file_pages(struct vm_area_struct *vma, unsigned long start,
		    unsigned long end);
/*
 * fork: copies vma's PTEs from src to dst. Private writable pages become
 * read-only in both (the next write COWs); each normal page gets a
 * reference and a mapping more, and dst's counters go up. 0 or -ENOMEM
 * (then dst holds what was copied, fully accounted: zap it).
 */
int copy_page_range(struct mm_struct *dst, struct mm_struct *src,
		    struct vm_area_struct *vma);

#endif
