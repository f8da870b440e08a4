/* mm/memory.c — user page tables and the fault core, shaped like Linux's:
 * pgd_alloc/free_pgtables, the one walker, vm_normal_page, handle_mm_fault
 * -> handle_pte_fault -> do_anonymous_page / do_wp_page, zap_page_range,
 * copy_page_range (fork), and munmap's hook for mm/mmap.c. */
#include <asm/pgtable.h>
#include <asm/tlb.h>
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/huge_mm.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mman.h>
#include <zpk/mmu.h>
#include <zpk/string.h>
#include <zpk/userfaultfd_k.h>
#include <zpk/vmstat.h>
#include <zpk/zero_page.h>
#include "internal.h"

#define USER_PTRS_PER_PGD	(PTRS_PER_TABLE / 2)	/* 0..255: user half */

/* ---- page-table pages ---------------------------------------------- */

/*
 * A zeroed table page, or NULL if out of memory; its page's ptl is the
 * lock of the entries in it once it is a PTE table (of a huge PMD's,
 * once a PMD table), its lru the list of tables deposited for its huge
 * PMDs. No lock held or taken but the allocator's: the page is no one's
 * until table_populate (under mm's page_table_lock), pgd_alloc or a
 * huge PMD's deposit puts it in. Called by those.
 */
void *pgtable_alloc(void)
{
	struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);

	if (!page)
		return NULL;
	page_set_flag(page, PG_pgtable);
	spin_lock_init(&page->ptl);
	INIT_LIST_HEAD(&page->lru);
	inc_vm_stat(NR_PAGE_TABLE_PAGES);
	return page_address(page);
}

/* A table page back to the allocator: one free_pgtables took out of a
 * dead tree, one table_populate lost a race with, or a huge PMD's
 * deposit. No CPU can reach it, so no lock. */
void pgtable_free(void *table)
{
	struct page *page = virt_to_page(table);

	page_clear_flag(page, PG_pgtable);
	dec_vm_stat(NR_PAGE_TABLE_PAGES);
	__free_page(page);
}

/* zpk/memory.h. Called by mm_alloc (kernel/fork.c) for a new mm no other
 * CPU can reach yet: no lock held or taken. */
pgd_t *pgd_alloc(struct mm_struct *mm)
{
	pgd_t *pgd = pgtable_alloc();

	if (!pgd)
		return NULL;
	if (init_pgd)
		memcpy(pgd + USER_PTRS_PER_PGD, init_pgd + USER_PTRS_PER_PGD,
		       (PTRS_PER_TABLE - USER_PTRS_PER_PGD) * sizeof(pgd_t));
	mm->pgd = pgd;
	return pgd;
}

static void *table_of(u64 entry)
{
	return __va(entry & PTE_PFN_MASK);
}

/* The zap took every huge PMD's deposited table back; any left (none
 * should be) go with their PMD table. */
static void free_deposited_tables(struct mm_struct *mm, pmd_t *pmd)
{
	struct list_head *l = &virt_to_page(pmd)->lru;

	while (!list_empty(l)) {
		struct page *pt = list_first_entry(l, struct page, lru);

		list_del(&pt->lru);
		pgtable_free(page_address(pt));
		mm->nr_ptes--;
	}
}

/*
 * zpk/memory.h. Called by exit_mmap (kernel/fork.c) after the zap and
 * the flush of every CPU that may still walk the tables, with mm's
 * mmap_lock held for writing (as Linux's free_pgtables), so mm_verify
 * sees the tables whole or gone. No PTE lock nor page_table_lock is
 * taken: no task uses mm any more. mm->pgd is NULL after.
 */
void free_pgtables(struct mm_struct *mm)
{
	pgd_t *pgd = mm->pgd;
	int i, j, k;

	if (!pgd)
		return;
	for (i = 0; i < USER_PTRS_PER_PGD; i++) {
		pud_t *pud;

		if (pgd_none(pgd[i]))
			continue;
		pud = table_of(pgd_val(pgd[i]));
		for (j = 0; j < PTRS_PER_TABLE; j++) {
			pmd_t *pmd;

			if (pud_none(pud[j]) || pud_leaf(pud[j]))
				continue;
			pmd = table_of(pud_val(pud[j]));
			free_deposited_tables(mm, pmd);
			for (k = 0; k < PTRS_PER_TABLE; k++) {
				if (pmd_none(pmd[k]) || pmd_leaf(pmd[k]))
					continue;
				pgtable_free(table_of(pmd_val(pmd[k])));
				mm->nr_ptes--;
			}
			pgtable_free(pmd);
			mm->nr_ptes--;
		}
		pgtable_free(pud);
		mm->nr_ptes--;
	}
	pgtable_free(pgd);
	mm->pgd = NULL;
}

/* ---- the walker ------------------------------------------------------ */

/*
 * The lock of the PTE at pte: its PTE table page's (Linux's split PTE
 * lock, pte_lockptr). A fault, a zap, mprotect, fork's copy and every
 * walker change or read a table's PTEs under it, so a fault on one CPU
 * and a fault or munmap on another never act on the same PTE at once,
 * while faults in other tables go on in parallel.
 */
spinlock_t *pte_lockptr(pte_t *pte)
{
	return &virt_to_page(pte)->ptl;
}

/*
 * An empty pgd, pud or pmd entry gets a new table (Linux's __pte_alloc
 * and friends): allocated first, then put in under mm's page_table_lock,
 * unless another CPU filled the entry meanwhile (then ours goes back).
 * false if out of memory. Called by __walk_pte with mm's mmap_lock held
 * (or mm private to the caller: fork's child, exec's new mm) and maybe a
 * PTE lock of another mm (fork's copy_pte_range holds the parent's):
 * the page_table_lock nests inside PTE locks, and is held only here.
 */
static bool table_populate(struct mm_struct *mm, u64 *entry)
{
	void *t = pgtable_alloc();

	if (!t)
		return false;
	spin_lock(&mm->page_table_lock);
	if (!(READ_ONCE(*entry) & _PAGE_PRESENT)) {
		mm->nr_ptes++;
		WRITE_ONCE(*entry, __pa(t) | _PAGE_TABLE);
		t = NULL;
	}
	spin_unlock(&mm->page_table_lock);
	if (t)
		pgtable_free(t);
	return true;
}

/* The walk's upper half: the PMD entry for addr (tables above it
 * allocated if alloc), or NULL with *next past the hole. __walk_pte's
 * contract; also called by pmd_alloc_walk and pmd_lookup, the PMD
 * level's way in (mm/huge_memory.c). */
static __fault_inline pmd_t *__walk_pmd(struct mm_struct *mm,
					unsigned long addr, bool alloc,
					unsigned long *next)
{
	pgd_t *pgd;
	pud_t *pud;

	if (next)
		*next = ~0UL;
	if (!mm->pgd || addr >= TASK_SIZE)
		return NULL;
	pgd = pgd_offset(mm, addr);
	if (pgd_none(*pgd)) {
		if (next)
			*next = (addr + PGDIR_SIZE) & ~(PGDIR_SIZE - 1);
		if (!alloc || !table_populate(mm, &pgd->pgd))
			return NULL;
	}
	pud = pud_offset(pgd, addr);
	if (pud_none(*pud)) {
		if (next)
			*next = (addr + PUD_SIZE) & ~(PUD_SIZE - 1);
		if (!alloc || !table_populate(mm, &pud->pud))
			return NULL;
	}
	if (pud_leaf(*pud))
		return NULL;	/* no 1 GiB user pages */
	return pmd_offset(pud, addr);
}

/*
 * The one walk. Returns the PTE for addr, allocating missing tables if
 * alloc. When it returns NULL without alloc, *next (if given) is the first
 * address past the hole, so range loops skip empty tables whole. Called
 * with mm's mmap_lock held (or mm private to the caller), no PTE lock of
 * mm's own (a new table takes the page_table_lock: table_populate), and
 * returns with the same held; the PTE it returns is not locked
 * (pte_lock). Called by __handle_mm_fault and walk_pte. The
 * fault path inlines it (__walk_pte; a real frame in the debug build):
 * there the call and the unused arguments cost as much as a level of the
 * walk; the range loops call it (walk_pte), as inlined it costs their
 * per-PTE loops registers. A huge PMD: see below.
 */
static __fault_inline pte_t *__walk_pte(struct mm_struct *mm,
					unsigned long addr, bool alloc,
					unsigned long *next)
{
	pmd_t *pmd = __walk_pmd(mm, addr, alloc, next);

	if (!pmd)
		return NULL;
	if (pmd_none(*pmd)) {
		if (next)
			*next = (addr + PMD_SIZE) & ~(PMD_SIZE - 1);
		if (!alloc || !table_populate(mm, &pmd->pmd))
			return NULL;
	}
	/* A huge PMD (or one a racing fault just put where table_populate
	 * found none): a walk that may allocate splits it, to reach a PTE;
	 * a lookup skips it, as its users follow huge PMDs themselves. */
	if (pmd_leaf(READ_ONCE(*pmd))) {
		if (next)
			*next = (addr + PMD_SIZE) & ~(PMD_SIZE - 1);
		if (!alloc)
			return NULL;
		split_huge_pmd(mm, pmd, addr);
	}
	if (next)
		*next = addr + PAGE_SIZE;
	return pte_offset_kernel(pmd, addr);
}

/* mm/internal.h: __walk_pmd's contract (mmap_lock held). */
pmd_t *pmd_alloc_walk(struct mm_struct *mm, unsigned long addr)
{
	return __walk_pmd(mm, addr, true, NULL);
}

pmd_t *pmd_lookup(struct mm_struct *mm, unsigned long addr)
{
	return __walk_pmd(mm, addr, false, NULL);
}

/* __walk_pte called (same contract): fork's copy_page_range, the range
 * walk, and through pte_alloc_map and pte_lookup gup, mremap, userfaultfd
 * and flush_zero_pte. */
static pte_t *walk_pte(struct mm_struct *mm, unsigned long addr, bool alloc,
		       unsigned long *next)
{
	return __walk_pte(mm, addr, alloc, next);
}

/* The end of the PTE table that maps addr, or end if that comes first:
 * range loops walk once per table and step through it (Linux's
 * pmd_addr_end). */
static unsigned long pte_table_end(unsigned long addr, unsigned long end)
{
	unsigned long boundary = (addr + PMD_SIZE) & ~(PMD_SIZE - 1);

	return boundary - 1 < end - 1 ? boundary : end;
}

/* zpk/memory.h; walk_pte's contract: mmap_lock held, PTE not locked. */
pte_t *pte_alloc_map(struct mm_struct *mm, unsigned long addr)
{
	return walk_pte(mm, addr, true, NULL);
}

pte_t *pte_lookup(struct mm_struct *mm, unsigned long addr)
{
	return walk_pte(mm, addr, false, NULL);
}

/* pte (if any) with its table's lock taken, in *ptlp: the caller holds
 * mm's mmap_lock and no PTE lock, and on return pte's too (NULL: none
 * taken). Called by __handle_mm_fault and the _lock walks below. */
static pte_t *pte_lock(pte_t *pte, spinlock_t **ptlp)
{
	if (pte) {
		*ptlp = pte_lockptr(pte);
		spin_lock(*ptlp);
	}
	return pte;
}

/* zpk/memory.h: mmap_lock held on entry and on return, and the PTE's
 * lock too on return unless NULL. */
pte_t *pte_alloc_map_lock(struct mm_struct *mm, unsigned long addr,
			  spinlock_t **ptlp)
{
	return pte_lock(pte_alloc_map(mm, addr), ptlp);
}

pte_t *pte_lookup_lock(struct mm_struct *mm, unsigned long addr,
		       spinlock_t **ptlp)
{
	return pte_lock(pte_lookup(mm, addr), ptlp);
}

/* Drops the lock pte_lock took (Linux's: also unmaps a highmem PTE
 * table, which x86-64 has not). */
void pte_unmap_unlock(pte_t *pte, spinlock_t *ptl)
{
	(void)pte;
	spin_unlock(ptl);
}

/*
 * Calls fn for every PTE slot in [start, end) whose tables exist and
 * which is not none, skipping empty tables whole. A non-zero return from
 * fn stops the walk and is returned. It walks down once per PTE table,
 * then along it, with the table's PTE lock held: fn runs under it and
 * must not sleep. The one range walk: zap, mprotect, /proc, mm_verify
 * (fn may change the PTE). walk_pte, to one PTE, serves faults, fork,
 * mremap, gup, userfaultfd and this descent. Under mm's mmap_lock (or mm
 * private to the caller). The zap inlines this (__walk_page_range): its
 * fn, run per PTE of a munmap or exit, is a direct call, itself inlined.
 * A huge PMD goes to pmd_fn (which takes its lock): its answer, or
 * WALK_PTES to walk the PTE table it left there (it split the PMD).
 */
static __always_inline int __walk_page_range(struct mm_struct *mm,
					     unsigned long start,
					     unsigned long end,
					     pte_walk_fn fn,
					     pmd_walk_fn pmd_fn, void *priv)
{
	unsigned long addr, next;
	spinlock_t *ptl;
	int ret = 0;

	for (addr = start & PAGE_MASK; addr < end && !ret; addr = next) {
		pmd_t *pmd = __walk_pmd(mm, addr, false, &next);
		pte_t *pte;

		if (!pmd)
			continue;
		next = pte_table_end(addr, end);
		if (pmd_leaf(READ_ONCE(*pmd)) &&
		    (ret = pmd_fn(mm, pmd, addr, next, fn, priv)) != WALK_PTES)
			continue;
		ret = 0;
		if (pmd_none(READ_ONCE(*pmd)) || pmd_leaf(READ_ONCE(*pmd)))
			continue;
		pte = pte_offset_kernel(pmd, addr);
		ptl = pte_lockptr(pte);
		spin_lock(ptl);
		for (; addr < next && !ret; addr += PAGE_SIZE, pte++)
			if (!pte_none(*pte))
				ret = fn(pte, addr, priv);
		spin_unlock(ptl);
	}
	return ret;
}

/* __walk_page_range called (same contract): mprotect's change_protection,
 * clear_refs and mremap's move, which change PTEs: a huge PMD on the way
 * is split first (split_huge_pmd). */
int walk_page_range(struct mm_struct *mm, unsigned long start,
		    unsigned long end, pte_walk_fn fn, void *priv)
{
	return __walk_page_range(mm, start, end, fn, split_huge_pmd_walk,
				 priv);
}

/* mm/internal.h: a walk whose own pmd_fn meets huge PMDs (mprotect's). */
int walk_page_range_pmd(struct mm_struct *mm, unsigned long start,
			unsigned long end, pte_walk_fn fn, pmd_walk_fn pmd_fn,
			void *priv)
{
	return __walk_page_range(mm, start, end, fn, pmd_fn, priv);
}

/* The same for walks that only read (smaps, pagemap, mincore, mbind's
 * check, mm_verify): fn sees each 4 KiB of a huge PMD as a copy of a PTE
 * (pte_pmd_mapped), under the PMD's lock, and the PMD stays whole. */
int walk_page_range_nosplit(struct mm_struct *mm, unsigned long start,
			    unsigned long end, pte_walk_fn fn, void *priv)
{
	return __walk_page_range(mm, start, end, fn, walk_huge_pmd_ptes,
				 priv);
}

/* ---- pages behind PTEs ---------------------------------------------- */

#define PAGE_USER_RO	(_PAGE_PRESENT | _PAGE_USER | _PAGE_ACCESSED | _PAGE_NX)
#define PAGE_USER_RW	(PAGE_USER_RO | _PAGE_RW)
#define PAGE_USER_RX	(_PAGE_PRESENT | _PAGE_USER | _PAGE_ACCESSED)
#define PAGE_USER_RWX	(PAGE_USER_RX | _PAGE_RW)

/*
 * The PTE bits for each combination of VM_READ, VM_WRITE and VM_EXEC
 * (Linux's protection_map): x86 cannot map a page writable or executable
 * but not readable. PROT_NONE is not present to the CPU (_PAGE_PROTNONE):
 * a supervisor-only PTE would still be readable by uaccess, which runs at
 * CPL 0.
 */
static const pgprot_t protection_map[8] = {
	[0]					= { _PAGE_PROTNONE |
						    _PAGE_ACCESSED | _PAGE_NX },
	[VM_READ]				= { PAGE_USER_RO },
	[VM_WRITE]				= { PAGE_USER_RW },
	[VM_READ | VM_WRITE]			= { PAGE_USER_RW },
	[VM_EXEC]				= { PAGE_USER_RX },
	[VM_READ | VM_EXEC]			= { PAGE_USER_RX },
	[VM_WRITE | VM_EXEC]			= { PAGE_USER_RWX },
	[VM_READ | VM_WRITE | VM_EXEC]		= { PAGE_USER_RWX },
};

pgprot_t vm_get_page_prot(unsigned long vm_flags)
{
	return protection_map[vm_flags & (VM_READ | VM_WRITE | VM_EXEC)];
}

/* zpk/memory.h. Reads only the PTE value it is given: no lock needed for
 * the answer, but the page is safe to use only while the PTE's lock (or
 * a reference) keeps it mapped. Called by the fault, zap, fork, gup,
 * /proc and mm_verify. */
struct page *vm_normal_page(struct vm_area_struct *vma, unsigned long addr,
			    pte_t pte)
{
	unsigned long pfn = pte_pfn(pte);

	(void)vma;
	(void)addr;
	if (!pte_present(pte) || pte_special(pte))
		return NULL;
	/* LAB(zero-page-whole) BEGIN task 2: nor is the zero pfn without the bit */
	if (is_zero_pfn(pfn) || !pfn_valid(pfn))
		return NULL;
	/* LAB(zero-page-whole) END:
	 * if (!pfn_valid(pfn))
	 *	return NULL;
	 */
	return pfn_to_page(pfn);
}

/* Which RSS counter a page mapped by a PTE counts in (Linux's names). */
static int mm_counter_file(struct page *page)
{
	return PageSwapBacked(page) ? MM_SHMEMPAGES : MM_FILEPAGES;
}

int mm_counter(struct page *page)
{
	/* LAB(rss) BEGIN task 2: which counter a mapped page is in */
	return PageAnon(page) ? MM_ANONPAGES : mm_counter_file(page);
	/* LAB(rss) END: (void)page; return MM_ANONPAGES; */
}

/*
 * FOLL_NOZERO's first step (KAMEZAWA's get_user_pages_nozero, "ZERO PAGE
 * again" RFC 4/4, linux-mm, July 2009): clears the zero-page PTE at addr,
 * if that is what is there, so that the next fault maps a real page.
 * Called by get_user_pages (FOLL_NOZERO) with mm's mmap_lock held for
 * reading; takes and drops the PTE's lock. true if it cleared one.
 */
bool flush_zero_pte(struct vm_area_struct *vma, unsigned long addr)
{
	/* LAB(zero-page-whole) BEGIN task 3: FOLL_NOZERO: away with a zero PTE */
	spinlock_t *ptl;
	pte_t *pte = pte_lookup_lock(vma->vm_mm, addr, &ptl);
	pte_t entry;

	if (!pte)
		return false;
	entry = *pte;
	if (!is_zero_pte(entry)) {
		pte_unmap_unlock(pte, ptl);
		return false;
	}
	pte_clear(pte);
	flush_tlb_range(vma, addr & PAGE_MASK, (addr & PAGE_MASK) + PAGE_SIZE);
	zero_pte_remove(vma->vm_mm, entry);
	pte_unmap_unlock(pte, ptl);
	count_vm_event(ZERO_PAGE_UNMAP);
	return true;
	/* LAB(zero-page-whole) END: (void)vma; (void)addr; return false; */
}

/* Sets a PTE that maps a page writable only if the VMA is (Linux's
 * maybe_mkwrite): FOLL_FORCE copies stay read-only to the user. */
static pte_t maybe_mkwrite(pte_t entry, struct vm_area_struct *vma)
{
	return vma->vm_flags & VM_WRITE ? pte_mkwrite(entry) : entry;
}

/*
 * A read fault's PTE for a page the VMA lets it write: read-only while
 * the VMA tracks soft-dirty, so that the first write faults and marks it
 * (Linux's vma_wants_writenotify takes the write bit out of vm_page_prot
 * for the same reason). The reuse on that fault copies nothing.
 */
static pte_t soft_dirty_wrprotect(pte_t entry, struct vm_area_struct *vma)
{
	return vma_soft_dirty_enabled(vma) ? pte_wrprotect(entry) : entry;
}

/* ---- faults --------------------------------------------------------- */

/*
 * A page for a fault, allocated with pte's lock dropped and then taken
 * again (Linux allocates before it takes the PTE lock: the allocator may
 * sleep in reclaim, and zpk's reports a GFP_KERNEL allocation under a
 * spinlock). Called with mm's mmap_lock for reading and pte's lock held;
 * both held on return, but the PTE may have changed meanwhile (another
 * fault, a zap, reclaim): the caller checks it again before using it.
 * The mmap_lock keeps the PTE table itself. NULL if out of memory.
 */
static struct page *alloc_page_unlocked(pte_t *pte, gfp_t gfp)
{
	spinlock_t *ptl = pte_lockptr(pte);
	struct page *page;

	spin_unlock(ptl);
	page = alloc_page(gfp);
	spin_lock(ptl);
	return page;
}

/* LAB(zero-page-whole) BEGIN task 1: map the zero page on a read fault */
/* LAB(zero-page) BEGIN task 1: map the zero page on a read fault */
/*
 * A read of untouched private anonymous memory maps the zero page read-
 * only (Linux's do_anonymous_page zero-page branch): special marks the
 * PTE so that vm_normal_page skips it; refcount takes a reference.
 * Called by do_anonymous_page with mm's mmap_lock (for reading) and the
 * none PTE's lock held, both still held on return. Returns 0.
 */
static vm_fault_t do_anon_zeromap(struct vm_area_struct *vma,
				  unsigned long address, pte_t *pte)
{
	pte_t entry = pte_wrprotect(pfn_pte(zero_pfn,
					    vm_get_page_prot(vma->vm_flags)));

	if (zero_page_policy == ZERO_PAGE_SPECIAL)
		entry = pte_mkspecial(entry);
	zero_pte_add(vma->vm_mm, entry);
	count_vm_event(ZERO_PAGE_MAP);
	/* No need to invalidate: it was non-present before. */
	(void)address;
	set_pte(pte, entry);
	return 0;
}

/* LAB(zero-page) END */
/* LAB(zero-page-whole) END */

/*
 * First touch of a private anonymous page: the zero page for a read
 * (unless zero_page=off), else a zeroed page of its own. In a range a
 * userfaultfd registered for missing pages, its reader supplies the page
 * instead (FAULT_FLAG_UFFD_FILL: the reader's UFFDIO_ZEROPAGE). Called
 * by handle_pte_fault (and mfill_zeropage_pte) with mm's mmap_lock for
 * reading and the none PTE's lock held, both held on return. The zero
 * page is mapped without letting go of the lock; a new page is allocated
 * and zeroed with it dropped (alloc_page_unlocked), as Linux's does it
 * before it takes the lock, and if the PTE is no longer none then
 * (another thread's fault, a userfaultfd fill) the page goes back and the
 * fault is done. Returns 0, VM_FAULT_OOM, or VM_FAULT_UFFD_MISSING (the
 * caller hands it to handle_userfault once the PTE lock is dropped).
 */
static vm_fault_t do_anonymous_page(struct vm_area_struct *vma,
				    unsigned long address, pte_t *pte,
				    unsigned int flags)
{
	struct page *page;
	pte_t entry;

	if (userfaultfd_missing(vma) && !(flags & FAULT_FLAG_UFFD_FILL))
		return VM_FAULT_UFFD_MISSING;
	/* LAB(zero-page-whole) BEGIN task 1: a read maps the zero page */
	/* LAB(zero-page) BEGIN task 1: a read maps the zero page */
	if (!(flags & (FAULT_FLAG_WRITE | FAULT_FLAG_NOZERO)) &&
	    zero_page_policy != ZERO_PAGE_OFF)
		return do_anon_zeromap(vma, address, pte);
	/* LAB(zero-page) END: (void)address; */
	/* LAB(zero-page-whole) END: (void)address; */
	page = alloc_page_unlocked(pte, GFP_HIGHUSER | __GFP_ZERO);
	if (!page)
		return VM_FAULT_OOM;
	if (!pte_none(*pte)) {		/* someone else mapped it meanwhile */
		put_page(page);
		return 0;
	}
	page_add_new_anon_rmap(page);
	inc_mm_counter(vma->vm_mm, MM_ANONPAGES);
	entry = pfn_pte(page_to_pfn(page), vm_get_page_prot(vma->vm_flags));
	if (flags & FAULT_FLAG_WRITE)
		entry = pte_mkdirty(entry);
	else	/* read under off: stands for the zero page, not written */
		entry = soft_dirty_wrprotect(entry, vma);
	/* No need to invalidate: it was non-present before. */
	set_pte(pte, entry);
	return 0;
}

/* UFFDIO_ZEROPAGE's fill (mm/userfaultfd.c), with the mmap_lock for
 * reading and the none PTE's lock held: do_anonymous_page's contract. */
vm_fault_t mfill_zeropage_pte(struct vm_area_struct *vma, unsigned long address,
			      pte_t *pte)
{
	return do_anonymous_page(vma, address, pte, FAULT_FLAG_UFFD_FILL);
}

/* The page behind address in a file VMA, from its vm_ops->fault (Linux's
 * __do_fault), in *pagep with a reference for the caller; under
 * do_fault's locks. 0 or VM_FAULT_*. */
static vm_fault_t __do_fault(struct vm_area_struct *vma,
			     unsigned long address, unsigned int flags,
			     struct page **pagep)
{
	struct vm_fault vmf = {
		.vma = vma,
		.address = address & PAGE_MASK,
		.pgoff = linear_page_index(vma, address),
		.flags = flags,
	};
	vm_fault_t ret;

	if (!vma->vm_ops || !vma->vm_ops->fault)
		return VM_FAULT_SIGBUS;
	ret = vma->vm_ops->fault(&vmf);
	*pagep = vmf.page;
	return ret;
}

/* A write to a private file mapping: new, allocated by do_fault, becomes
 * a private copy of page, the file's (Linux's do_cow_fault). Called by
 * do_fault with mm's mmap_lock for reading and the none PTE's lock held,
 * both still held on return. Returns 0. */
static vm_fault_t do_cow_fault(struct vm_area_struct *vma,
			       unsigned long address, pte_t *pte,
			       struct page *page, struct page *new)
{
	pte_t entry;

	copy_page(page_address(new), page_address(page));
	page_add_new_anon_rmap(new);
	inc_mm_counter(vma->vm_mm, MM_ANONPAGES);
	entry = pfn_pte(page_to_pfn(new), vm_get_page_prot(vma->vm_flags));
	(void)address;	/* was none: nothing cached to flush */
	set_pte(pte, pte_mkdirty(maybe_mkwrite(entry, vma)));
	return 0;
}

/*
 * Whether page, ->fault's answer for address, may still be mapped there:
 * still the file's (truncate or a punched hole may have taken it while
 * the PTE lock was dropped: Linux's page->mapping check under the page
 * lock) and not past EOF. Under the PTE lock, this orders the fault with
 * truncate, which sets the size before it unmaps (and so waits for this
 * lock); i_pages_lock nests inside it.
 */
static bool fault_page_current(struct vm_area_struct *vma,
			       unsigned long address, struct page *page)
{
	struct inode *inode = vma->vm_file->f_inode;

	return READ_ONCE(page->mapping) == inode &&
	       linear_page_index(vma, address) <
	       PAGE_ALIGN(READ_ONCE(inode->i_size)) >> PAGE_SHIFT;
}

/*
 * First touch of a file page (Linux's do_fault): the VMA's
 * vm_ops->fault finds it; a read maps the page cache's page itself,
 * read-only unless the mapping is shared; a write to a private mapping
 * copies it. ->fault's reference is put once the PTE holds its own.
 * Called by handle_pte_fault and handle_pte_marker with mm's mmap_lock
 * (for reading) and the none (or marker) PTE's lock held, both held on
 * return. The lock is dropped for ->fault and the copy's allocation
 * (both may reclaim, as Linux's run before the PTE lock is taken); if the
 * PTE changed meanwhile, or the file let the page go, the fault is done
 * (a fault again finds what is there now). Returns 0, ->fault's
 * VM_FAULT_SIGBUS (past EOF) or VM_FAULT_OOM, or VM_FAULT_UFFD_MINOR
 * (shmem_userfault).
 */
static vm_fault_t do_fault(struct vm_area_struct *vma, unsigned long address,
			   pte_t *pte, unsigned int flags)
{
	bool shared = vma->vm_flags & VM_SHARED;
	vm_fault_t ret = shmem_userfault(vma, address);
	spinlock_t *ptl = pte_lockptr(pte);
	struct page *page = NULL, *new = NULL;
	pte_t orig = *pte, entry;

	if (ret)
		return ret;
	spin_unlock(ptl);
	if ((flags & FAULT_FLAG_WRITE) && !shared &&
	    !(new = alloc_page(GFP_HIGHUSER)))
		ret = VM_FAULT_OOM;
	else
		ret = __do_fault(vma, address, flags, &page);
	spin_lock(ptl);
	if (!ret && (!pte_same(*pte, orig) ||
		     !fault_page_current(vma, address, page))) {
		put_page(page);	/* another fault got there, or truncate */
		page = NULL;
	}
	if (!page) {
		if (new)
			put_page(new);
		return ret;
	}
	if (new) {
		ret = do_cow_fault(vma, address, pte, page, new);
		put_page(page);
		return ret;
	}
	page_add_file_rmap(page);
	put_page(page);		/* the PTE's reference holds it now */
	inc_mm_counter(vma->vm_mm, mm_counter_file(page));
	entry = pfn_pte(page_to_pfn(page), vm_get_page_prot(vma->vm_flags));
	if (!shared)
		entry = pte_wrprotect(entry);
	else if (flags & FAULT_FLAG_WRITE)
		entry = pte_mkdirty(entry);
	else
		entry = soft_dirty_wrprotect(entry, vma);
	set_pte(pte, entry);	/* was none: nothing cached to flush */
	return 0;
}

/* A write fault that may use the page it hit: make the PTE writable
 * (Linux's wp_page_reuse). Called by do_wp_page with mm's mmap_lock and
 * the PTE's lock held, both still held on return. Returns 0. */
static vm_fault_t wp_page_reuse(struct vm_area_struct *vma, pte_t *pte,
				pte_t orig)
{
	/* Less strict than before: the fault itself dropped the read-only
	 * entry (x86's ptep_set_access_flags: no flush). */
	set_pte(pte, maybe_mkwrite(pte_mkdirty(pte_mkyoung(orig)), vma));
	return 0;
}

/* LAB(cow-whole) BEGIN task 2: may a write fault reuse the page? */
/*
 * May a write fault reuse this anonymous page rather than copy it?
 * (Linux's wp_can_reuse_anon_folio.) Yes if it is exclusive to this mm.
 * Otherwise (fork shared it) only if no one else holds it at all: its
 * one reference is this PTE's. Another mapping is not all that counts:
 * a pipe's vmsplice or a get_user_pages holds a reference without one,
 * and must keep seeing the page as it was. A reused page is exclusive.
 */
static bool wp_can_reuse_anon_page(struct page *page)
{
	/* LAB(cow-fork) BEGIN task 2: reuse a page no one else holds */
	if (PageAnonExclusive(page))
		return true;
	if (page_count(page) != 1)
		return false;
	page_set_flag(page, PG_anon_exclusive);
	return true;
	/* LAB(cow-fork) END: (void)page; return false; */
}
/* LAB(cow-whole) END */

/*
 * The copy of a COW fault (Linux's wp_page_copy), with the PTE lock held
 * on entry and on return: a new page in place of orig, zeroed if orig
 * maps the zero page, else a copy of its page; dirty, and writable if the
 * VMA is. The page is allocated and filled with the PTE lock dropped, as
 * Linux's: a reference keeps old meanwhile (the zero page needs none),
 * and once the lock is back pte_same checks that the PTE still holds
 * orig; if not (another thread's fault, a zap, reclaim), the new page
 * goes back and the fault is done: the access runs again and faults anew
 * if it must. The old PTE is flushed before old can go
 * (ptep_clear_flush), as another CPU may still write through it. Called
 * by do_wp_page, with mm's mmap_lock held for reading too. Returns 0 or
 * VM_FAULT_OOM.
 */
static vm_fault_t wp_page_copy(struct vm_area_struct *vma,
			       unsigned long address, pte_t *pte, pte_t orig,
			       struct page *old)
{
	/* LAB(cow-whole) BEGIN task 2: a private copy in place of the page */
	struct mm_struct *mm = vma->vm_mm;
	/* LAB(zero-page-whole) BEGIN task 3: a write to a zero PTE */
	bool zero = is_zero_pte(orig);
	/* LAB(zero-page-whole) END: bool zero = false; */
	spinlock_t *ptl = pte_lockptr(pte);
	struct page *new;
	pte_t entry;

	if (old)
		get_page(old);		/* ours while the lock is dropped */
	spin_unlock(ptl);
	new = alloc_page(zero ? GFP_HIGHUSER | __GFP_ZERO : GFP_HIGHUSER);
	if (new && !zero)
		copy_page(page_address(new), __va(PFN_PHYS(pte_pfn(orig))));
	spin_lock(ptl);
	if (old)
		put_page(old);	/* the PTE's reference, if still there, holds it */
	if (!new)
		return VM_FAULT_OOM;
	if (!pte_same(*pte, orig)) {
		put_page(new);
		return 0;
	}
	page_add_new_anon_rmap(new);
	inc_mm_counter(mm, MM_ANONPAGES);
	entry = pfn_pte(page_to_pfn(new), vm_get_page_prot(vma->vm_flags));
	set_pte(pte, pte_mkdirty(maybe_mkwrite(entry, vma)));
	flush_tlb_range(vma, address, address + PAGE_SIZE);
	/* LAB(zero-page-whole) BEGIN task 3: a zero PTE has no page to put */
	if (zero) {
		zero_pte_remove(mm, orig);
		count_vm_event(ZERO_PAGE_COW);
	} else if (old) {
	/* LAB(zero-page-whole) END: if (old) { */
		dec_mm_counter(mm, mm_counter(old));
		page_remove_rmap(old);
		put_page(old);
	}
	count_vm_event(COW_FAULT);
	return 0;
	/* LAB(cow-whole) END:
	 * struct mm_struct *mm = vma->vm_mm;
	 *
	 * (void)orig;
	 * pte_clear(pte);
	 * flush_tlb_range(vma, address, address + PAGE_SIZE);
	 * if (old) {
	 *	dec_mm_counter(mm, mm_counter(old));
	 *	page_remove_rmap(old);
	 *	put_page(old);
	 * }
	 * return 0;
	 */
}

/*
 * Write to a present read-only PTE, with the PTE lock held on entry and
 * on return (Linux's do_wp_page). A PTE a userfaultfd write-protected:
 * its reader's to resolve. A shared mapping writes its page itself. An
 * anonymous page no one else holds (wp_can_reuse_anon_page): reuse it.
 * Otherwise (shared after fork, a file page, the zero page) a private
 * copy, wp_page_copy (the PTE's reference keeps a file page that
 * truncate took from the file). Called by handle_pte_fault (and
 * do_swap_page), with mm's mmap_lock held for reading too; wp_page_copy
 * drops the PTE lock while it allocates. Returns 0, VM_FAULT_OOM or
 * VM_FAULT_UFFD_WP.
 */
static __maybe_unused vm_fault_t do_wp_page(struct vm_area_struct *vma,
					    unsigned long address, pte_t *pte)
{
	pte_t orig = *pte;
	struct page *old = vm_normal_page(vma, address, orig);

	if (userfaultfd_pte_wp(vma, orig))
		return VM_FAULT_UFFD_WP;
	address &= PAGE_MASK;
	if (old && (vma->vm_flags & VM_SHARED))
		return wp_page_reuse(vma, pte, orig);
	/* LAB(cow-whole) BEGIN task 2: reuse a page no one else holds */
	if (old && PageAnon(old) && wp_can_reuse_anon_page(old))
		return wp_page_reuse(vma, pte, orig);
	/* LAB(cow-whole) END:
	 * if (old && PageAnon(old))
	 *	return wp_page_reuse(vma, pte, orig);
	 */
	return wp_page_copy(vma, address, pte, orig, old);
}

/*
 * A none PTE of shmem that remembers a userfaultfd write protection (a
 * uffd-wp marker, left by a zap): the page faults in as from none, and
 * comes back protected (Linux's handle_pte_marker). A marker outside a
 * uffd-wp VMA has nothing left to remember: it just goes. Called by
 * handle_pte_fault with its locks (mmap_lock for reading, the PTE's
 * lock), both held on return (do_fault may drop the PTE's meanwhile).
 * Returns do_fault's answer, or 0.
 */
static __maybe_unused vm_fault_t handle_pte_marker(struct vm_area_struct *vma,
						   unsigned long address,
						   pte_t *pte, unsigned int flags)
{
	vm_fault_t ret;

	if (!userfaultfd_wp(vma) || !vma->vm_file) {
		pte_clear(pte);
		return 0;
	}
	ret = do_fault(vma, address, pte, flags);
	/* Mapped just now (nothing cached to flush); not if do_fault found
	 * the PTE changed while it allocated (then it may be none). */
	if (!ret && pte_present(*pte))
		set_pte(pte, pte_mkuffd_wp(*pte));
	return ret;
}

/*
 * The fault on its PTE, with the PTE lock held (and the mmap_lock for
 * reading) on entry and on return (Linux's handle_pte_fault). A none PTE
 * is a first touch: anonymous or file; a swap PTE, do_swap_page; a
 * present one a write hit read-only is a COW (do_wp_page); a present one
 * the access may use was a stale TLB entry. Called by __handle_mm_fault.
 * No allocation is made under the PTE lock: the handlers that allocate
 * or read (do_anonymous_page, do_fault's copy, wp_page_copy,
 * do_swap_page) drop it meanwhile and check the PTE again once it is
 * back (Linux's take it only after allocating). Returns 0 or VM_FAULT_*
 * (a VM_FAULT_UFFD_* is its caller's to hand to handle_userfault).
 */
static __maybe_unused vm_fault_t handle_pte_fault(struct vm_area_struct *vma,
						  unsigned long address,
						  pte_t *pte, unsigned int flags)
{
	/* LAB(demand-paging) BEGIN task 2: what the PTE's state calls for */
	pte_t entry = *pte;

	if (pte_none(entry))
		return vma->vm_file ? do_fault(vma, address, pte, flags)
				    : do_anonymous_page(vma, address, pte,
							flags);
	if (pte_marker_uffd_wp(entry))
		return handle_pte_marker(vma, address, pte, flags);
	if (!pte_present(entry))
		return do_swap_page(vma, address, pte, flags);
	if ((flags & FAULT_FLAG_WRITE) && !pte_write(entry))
		return do_wp_page(vma, address, pte);
	/* Present and allowed: a spurious fault (stale TLB). The fault
	 * dropped the stale entry (x86's flush_tlb_fix_spurious_fault is a
	 * no-op), and the retry sets Accessed. A write marks the entry
	 * dirty here, as x86's ptep_set_access_flags: only then, since a
	 * rewrite from a read could lose a Dirty bit another CPU's MMU sets
	 * meanwhile (this write sets it itself). */
	if (flags & FAULT_FLAG_WRITE)
		set_pte(pte, pte_mkdirty(pte_mkyoung(entry)));
	return 0;
	/* LAB(demand-paging) END:
	 * (void)vma; (void)address; (void)pte; (void)flags;
	 * return VM_FAULT_SIGSEGV;
	 */
}

/* The VM_UFFD_* reason of a VM_FAULT_UFFD_* answer. */
static __maybe_unused unsigned long userfault_reason(vm_fault_t ret)
{
	if (ret & VM_FAULT_UFFD_WP)
		return VM_UFFD_WP;
	return ret & VM_FAULT_UFFD_MINOR ? VM_UFFD_MINOR : VM_UFFD_MISSING;
}

/*
 * The tables down to the PTE (allocated if missing; the walk inlined, as
 * it costs as much as a level of it to call), its lock, and the fault on
 * it. A fault for a userfaultfd's reader goes to handle_userfault after
 * the PTE lock is dropped: it sleeps. Called by handle_mm_fault with
 * mm's mmap_lock held for reading; it is still held on return, but after
 * a userfault (VM_FAULT_RETRY), which gave it up. The PTE lock is taken
 * and dropped here. Returns 0 or VM_FAULT_* (OOM if a table could not be
 * allocated).
 */
static __maybe_unused vm_fault_t __handle_mm_fault(struct vm_area_struct *vma,
						   unsigned long address,
						   unsigned int flags)
{
	/* The PMD level first: a huge page, or a huge PMD to write. */
	vm_fault_t huge = handle_huge_pmd_fault(vma, address, flags);

	if (huge != VM_FAULT_FALLBACK)
		return huge;
	/* LAB(demand-paging) BEGIN task 2: down to the PTE, locked */
	spinlock_t *ptl;
	pte_t *pte;
	vm_fault_t ret = VM_FAULT_OOM;

	pte = pte_lock(__walk_pte(vma->vm_mm, address, true, NULL), &ptl);
	if (pte) {
		ret = handle_pte_fault(vma, address, pte, flags);
		pte_unmap_unlock(pte, ptl);
	}
	if (ret & VM_FAULT_USERFAULT)
		ret = handle_userfault(vma, address, flags, userfault_reason(ret));
	return ret;
	/* LAB(demand-paging) END:
	 * (void)vma; (void)address; (void)flags;
	 * return VM_FAULT_SIGSEGV;
	 */
}

/*
 * A fault at address, which vma should cover (it may be NULL or above
 * it), with vma's mm's mmap_lock held for reading; it is given up only
 * for a userfault, which answers VM_FAULT_RETRY (Linux's handle_mm_fault
 * has the same contract). Called by do_page_fault and get_user_pages.
 * Returns 0 when the access can run again, else VM_FAULT_* (SIGSEGV:
 * no VMA or not allowed; OOM; SIGBUS; RETRY).
 */
vm_fault_t handle_mm_fault(struct vm_area_struct *vma, unsigned long address,
			   unsigned int flags)
{
	/* LAB(demand-paging) BEGIN task 2: is it allowed? then fault */
	count_vm_event(PGFAULT);
	if (!vma || address < vma->vm_start || address >= vma->vm_end)
		return VM_FAULT_SIGSEGV;
	if (access_error(vma, flags))
		return VM_FAULT_SIGSEGV;
	if (!vma->vm_mm->pgd)
		return VM_FAULT_SIGBUS;
	return __handle_mm_fault(vma, address, flags);
	/* LAB(demand-paging) END:
	 * spinlock_t *ptl;
	 * pte_t *pte;
	 * vm_fault_t ret = VM_FAULT_SIGSEGV;
	 *
	 * pte = pte_alloc_map_lock(vma->vm_mm, address, &ptl);
	 * if (!pte) {
	 *	ret = VM_FAULT_OOM;
	 * } else {
	 *	if (pte_none(*pte) && vma->vm_file)
	 *		ret = do_fault(vma, address, pte, flags);
	 *	else if (pte_none(*pte))
	 *		ret = do_anonymous_page(vma, address, pte, flags);
	 *	pte_unmap_unlock(pte, ptl);
	 * }
	 * return ret;
	 */
}

/* ---- ranges --------------------------------------------------------- */

/* Whose PTEs a zap clears (vma may be NULL: munmap's hook), and the
 * gather that flushes them and then frees their pages. */
struct zap_details {
	struct vm_area_struct *vma;
	struct mmu_gather *tlb;
	long rss[NR_MM_COUNTERS];	/* the counters' changes so far */
	bool keep_cows;	/* a hole punched in the file: its pages only */
};

/* A PTE (not none: the walk passes those) a zap of the file's pages
 * passes by (Linux's should_zap_page without even_cows): a private copy,
 * in memory or in swap. */
static bool zap_skips(struct zap_details *zd, unsigned long addr,
		      pte_t entry)
{
	struct page *page;

	if (!zd->keep_cows)
		return false;
	if (is_swap_pte(entry))
		return true;
	page = pte_present(entry) ? vm_normal_page(zd->vma, addr, entry) :
				    NULL;
	return page && PageAnon(page);
}

/*
 * A zap of a shmem VMA that userfaultfd write-protects (MADV_DONTNEED,
 * not munmap: zd->vma set) keeps the protection of the PTE it clears as
 * a marker, for when the page faults back in (Linux's
 * pte_install_uffd_wp_if_needed). Returns true if entry stays.
 */
static bool zap_keeps_uffd_wp(struct zap_details *zd, pte_t *pte, pte_t entry)
{
	if (!zd->vma || !zd->vma->vm_file || !userfaultfd_wp(zd->vma) ||
	    !pte_uffd_wp(entry))
		return false;
	set_pte(pte, make_pte_marker_uffd_wp());
	return pte_marker_uffd_wp(entry);
}

/* Clears one PTE and gives back what it held (a walk_page_range fn, so
 * under the PTE's lock and the mmap_lock): the counters and rmap at
 * once, the page itself after the gather's flush; a swap PTE's slot
 * reference (and the swap cache's page, if no one needs it now).
 * Returns 0. */
static int zap_one_pte(pte_t *pte, unsigned long addr, void *priv)
{
	struct zap_details *zd = priv;
	pte_t entry;
	struct page *page;

	if (zap_skips(zd, addr, *pte))
		return 0;
	entry = ptep_get_and_clear(pte);
	if (zap_keeps_uffd_wp(zd, pte, entry))
		return 0;
	if (pte_present(entry))
		tlb_remove_tlb_entry(zd->tlb, pte, addr);
	if (is_swap_pte(entry)) {
		zd->rss[MM_SWAPENTS]--;
		free_swap_and_cache(pte_to_swp_entry(entry));
		return 0;
	}
	/* LAB(zero-page-whole) BEGIN task 1: unmapping a zero PTE */
	if (is_zero_pte(entry)) {
		zero_pte_count(zd->rss, entry, -1);
		return 0;
	}
	/* LAB(zero-page-whole) END */
	page = vm_normal_page(zd->vma, addr, entry);
	if (!page)
		return 0;
	zd->rss[mm_counter(page)]--;
	page_remove_rmap(page);
	tlb_remove_page(zd->tlb, page);
	return 0;
}

/* A huge PMD in a zap: gone whole if the zap covers it (zap_huge_pmd),
 * else split, and its PTEs zapped (a pmd_walk_fn). */
static int zap_huge_pmd_walk(struct mm_struct *mm, pmd_t *pmd,
			     unsigned long addr, unsigned long end,
			     pte_walk_fn fn, void *priv)
{
	struct zap_details *zd = priv;

	(void)fn;
	if (zd->keep_cows)
		return 0;	/* a THP is anonymous: a private copy */
	if (!(addr & ~HPAGE_PMD_MASK) && end - addr == HPAGE_PMD_SIZE)
		return zap_huge_pmd(zd->tlb, mm, pmd, addr, zd->rss);
	split_huge_pmd(mm, pmd, addr);
	return WALK_PTES;
}

/* The zap of [start, end): under mm's mmap_lock (for reading or
 * writing, as the caller), each PTE table's lock taken in turn; the
 * counters are added before it returns, while the mmap_lock is held. */
static void zap_pte_range(struct mmu_gather *tlb, struct mm_struct *mm,
			  struct vm_area_struct *vma, unsigned long start,
			  unsigned long end, bool keep_cows)
{
	struct zap_details zd = { .vma = vma, .tlb = tlb,
				  .keep_cows = keep_cows };

	__walk_page_range(mm, start, end, zap_one_pte, zap_huge_pmd_walk,
			  &zd);
	add_mm_rss_vec(mm, zd.rss);
	count_vm_events(ZERO_PAGE_UNMAP, -zd.rss[MM_ZEROPAGES]);
}

static void zap_range(struct vm_area_struct *vma, unsigned long start,
		      unsigned long end, bool keep_cows)
{
	struct mmu_gather tlb;

	tlb_gather_mmu(&tlb, vma->vm_mm);
	zap_pte_range(&tlb, vma->vm_mm, vma, start & PAGE_MASK, end,
		      keep_cows);
	tlb_finish_mmu(&tlb);
}

/* MADV_DONTNEED, /dev/zero's zeromap, truncate, the OOM reaper: a zap
 * of its own, flushed and its pages freed before it returns (Linux's
 * zap_page_range_single). mm's mmap_lock held for reading on entry and
 * on return; PTE locks taken and dropped. */
void zap_page_range(struct vm_area_struct *vma, unsigned long start,
		    unsigned long end)
{
	zap_range(vma, start, end, false);
}

/* The same for a hole punched in vma's file: its pages only, a private
 * mapping's copies of them stay (Linux's unmap_mapping_range with
 * even_cows 0). */
void zap_file_pages(struct vm_area_struct *vma, unsigned long start,
		    unsigned long end)
{
	zap_range(vma, start, end, true);
}

/* munmap's and exit's zap (mm/mmap.c), into the caller's gather, with
 * mm's mmap_lock held for writing on entry and on return. */
void unmap_page_range(struct mmu_gather *tlb, struct mm_struct *mm,
		      unsigned long start, unsigned long end)
{
	zap_pte_range(tlb, mm, NULL, start & PAGE_MASK, end, false);
}

/* fork: one PTE into the child, counted in the child's rss[]. A private
 * writable page becomes read-only in both (the next write COWs); a normal
 * page gets a reference and a mapping more; a zero PTE is copied as it
 * is; a swap PTE as it is, its slot one user more (MM_SWAPENTS). Called by copy_pte_range under the parent's PTE lock. Returns 1
 * if it write-protected the parent's PTE, which the caller must flush,
 * else 0. (The labs' stub copies each anonymous page at once,
 * as xv6's uvmcopy does, and may return -ENOMEM.) */
static int copy_one_pte(long rss[NR_MM_COUNTERS], struct vm_area_struct *vma,
			unsigned long addr, pte_t *src_pte, pte_t *dst_pte)
{
	pte_t entry = *src_pte;
	struct page *page;
	int wrprotected = 0;

	if (is_swap_pte(entry)) {	/* one more user of the slot */
		if (swap_duplicate(pte_to_swp_entry(entry)))
			return -ENOMEM;
		rss[MM_SWAPENTS]++;
		set_pte(dst_pte, entry);
		return 0;
	}
	/* LAB(cow-whole) BEGIN task 1: share the page, read-only on both sides */
	/* LAB(cow-fork) BEGIN task 1: write-protect a COW page on both sides */
	if (pte_present(entry) && is_cow_mapping(vma->vm_flags) &&
	    pte_write(entry)) {
		ptep_set_wrprotect(src_pte);
		entry = pte_wrprotect(entry);
		wrprotected = 1;
	}
	/* LAB(cow-fork) END:
	 * page = vm_normal_page(vma, addr, entry);
	 * if (page && PageAnon(page) && is_cow_mapping(vma->vm_flags)) {
	 *	struct page *new = alloc_page(GFP_ATOMIC);
	 *
	 *	if (!new)
	 *		return -ENOMEM;
	 *	copy_page(page_address(new), page_address(page));
	 *	page_add_new_anon_rmap(new);
	 *	rss[MM_ANONPAGES]++;
	 *	set_pte(dst_pte, pfn_pte(page_to_pfn(new),
	 *				 pte_pgprot(entry)));
	 *	return wrprotected;
	 * }
	 */
	page = vm_normal_page(vma, addr, entry);
	if (page) {
		get_page(page);
		page_dup_rmap(page);
		rss[mm_counter(page)]++;
	}
	/* LAB(cow-whole) END:
	 * page = vm_normal_page(vma, addr, entry);
	 * if (page && PageAnon(page) && is_cow_mapping(vma->vm_flags)) {
	 *	struct page *new = alloc_page(GFP_ATOMIC);
	 *
	 *	if (!new)
	 *		return -ENOMEM;
	 *	copy_page(page_address(new), page_address(page));
	 *	page_add_new_anon_rmap(new);
	 *	rss[MM_ANONPAGES]++;
	 *	set_pte(dst_pte, pfn_pte(page_to_pfn(new),
	 *				 pte_pgprot(entry)));
	 *	return wrprotected;
	 * }
	 * if (page) {
	 *	get_page(page);
	 *	page_dup_rmap(page);
	 *	rss[mm_counter(page)]++;
	 * }
	 */
	/* LAB(zero-page-whole) BEGIN task 3: fork copies a zero PTE */
	/* Special stays special, refcount takes a reference; nothing is
	 * allocated. */
	if (is_zero_pte(entry))
		zero_pte_count(rss, entry, 1);
	/* LAB(zero-page-whole) END */
	set_pte(dst_pte, entry);
	return wrprotected;
}

/*
 * [addr, end), within one PTE table of src (the one src_pte is in), into
 * dst (Linux's copy_pte_range), under the source table's lock: dst is
 * fork's new mm, which no other CPU can reach. dst's PTE table is
 * allocated first, before that lock is taken (as Linux's). The parent's
 * PTEs it write-protected widen [*wp_start, *wp_end). 0 or -ENOMEM.
 */
static __maybe_unused int copy_pte_range(struct mm_struct *dst,
					  struct vm_area_struct *vma,
					  pte_t *src_pte, unsigned long addr,
					  unsigned long end,
					  unsigned long *wp_start,
					  unsigned long *wp_end)
{
	/* LAB(cow-whole) BEGIN task 1: a table at a time, under its lock */
	spinlock_t *ptl = pte_lockptr(src_pte);
	pte_t *dst_pte = pte_alloc_map(dst, addr);
	long rss[NR_MM_COUNTERS] = { 0 };
	int ret = 0;

	if (!dst_pte)
		return -ENOMEM;
	spin_lock(ptl);
	for (; addr < end; addr += PAGE_SIZE, src_pte++, dst_pte++) {
		if (pte_none(*src_pte))
			continue;
		ret = copy_one_pte(rss, vma, addr, src_pte, dst_pte);
		if (ret < 0)
			break;
		if (ret)
			changed_range_add(wp_start, wp_end, addr);
	}
	ret = ret < 0 ? ret : 0;
	spin_unlock(ptl);
	add_mm_rss_vec(dst, rss);
	count_vm_events(ZERO_PAGE_FORK_COPY, rss[MM_ZEROPAGES]);
	return ret;
	/* LAB(cow-whole) END:
	 * (void)dst; (void)vma; (void)src_pte; (void)addr; (void)end;
	 * (void)wp_start; (void)wp_end;
	 * return -ENOSYS;
	 */
}

/* One walk per PTE table on each side, then along both tables. The
 * parent's PTEs it write-protected are flushed once, as one range, on
 * the way out (Linux flushes all of oldmm at the end of dup_mmap).
 * Called by fork's dup_mmap with both mms' mmap_locks held for writing
 * (the parent's first), held on return. 0 or -ENOMEM. */
int copy_page_range(struct mm_struct *dst, struct mm_struct *src,
		    struct vm_area_struct *vma)
{
	/* LAB(cow-whole) BEGIN task 1: each table, then one flush */
	unsigned long addr, next, end = vma->vm_end;
	unsigned long wp_start = 0, wp_end = 0;
	int ret = 0;

	for (addr = vma->vm_start; addr < end && !ret; addr = next) {
		pte_t *src_pte = walk_pte(src, addr, false, &next);

		if (!src_pte)
			continue;
		next = pte_table_end(addr, end);
		ret = copy_pte_range(dst, vma, src_pte, addr, next, &wp_start,
				     &wp_end);
	}
	if (wp_end)
		flush_tlb_mm_range(src, wp_start, wp_end);
	return ret;
	/* LAB(cow-whole) END:
	 * unsigned long addr;
	 *
	 * for (addr = vma->vm_start; addr < vma->vm_end; addr += PAGE_SIZE) {
	 *	long rss[NR_MM_COUNTERS] = { 0 };
	 *	pte_t *src_pte = pte_lookup(src, addr);
	 *	pte_t *dst_pte;
	 *	int ret;
	 *
	 *	if (!src_pte || pte_none(*src_pte))
	 *		continue;
	 *	dst_pte = pte_alloc_map(dst, addr);
	 *	if (!dst_pte)
	 *		return -ENOMEM;
	 *	spin_lock(pte_lockptr(src_pte));
	 *	ret = copy_one_pte(rss, vma, addr, src_pte, dst_pte);
	 *	spin_unlock(pte_lockptr(src_pte));
	 *	add_mm_rss_vec(dst, rss);
	 *	if (ret < 0)
	 *		return ret;
	 * }
	 * return 0;
	 */
}

/* ---- swap ------------------------------------------------------------- */

/*
 * A swap PTE (Linux's do_swap_page): the page comes from the swap cache,
 * or is read from the slot into it (a major fault: pgmajfault, and the
 * caller's maj_flt through VM_FAULT_MAJOR). The PTE lock is dropped
 * while it allocates and reads, and taken again before pte_same checks
 * that the PTE still holds the slot: else the fault is done (another
 * fault, a zap or swapoff got there first). A page no one else holds
 * (swap_cache_map) leaves the cache and is mapped writable for a write;
 * a shared one read-only, and a write then copies it (do_wp_page), so
 * that a cached page never differs from its slot. Called by
 * handle_pte_fault with mm's mmap_lock held for reading and the PTE's
 * lock, both held on return. Returns 0, VM_FAULT_MAJOR, VM_FAULT_OOM,
 * VM_FAULT_SIGBUS (a failed read: the faulting process's alone; or a
 * fault with a spinlock held, which may not sleep).
 */
vm_fault_t do_swap_page(struct vm_area_struct *vma, unsigned long address,
			pte_t *pte, unsigned int flags)
{
	/* LAB(swap) BEGIN task 2: back from the swap cache or the disk */
	spinlock_t *ptl = pte_lockptr(pte);
	pte_t orig = *pte, entry;
	swp_entry_t swp = pte_to_swp_entry(orig);
	struct page *page;
	bool major = false;
	vm_fault_t ret = 0;
	int exclusive;

	if (!is_swap_pte(orig))
		return VM_FAULT_SIGBUS;
	spin_unlock(ptl);
	page = swapin_page(swp, &major);
	spin_lock(ptl);
	if (IS_ERR(page)) {
		if (!pte_same(*pte, orig) || PTR_ERR(page) == -EAGAIN)
			return 0;
		return PTR_ERR(page) == -ENOMEM ? VM_FAULT_OOM : VM_FAULT_SIGBUS;
	}
	if (major) {
		count_vm_event(PGMAJFAULT);
		ret = VM_FAULT_MAJOR;
	}
	if (!pte_same(*pte, orig) ||
	    (exclusive = swap_cache_map(page, swp)) < 0) {
		spin_unlock(ptl);
		try_to_free_swap(page);	/* no one needs it now */
		put_page(page);
		spin_lock(ptl);
		return ret;
	}
	/* The slot's reference went, the page's (ours) is the PTE's now. */
	add_mm_counter(vma->vm_mm, MM_SWAPENTS, -1);
	inc_mm_counter(vma->vm_mm, MM_ANONPAGES);
	entry = pfn_pte(page_to_pfn(page), vm_get_page_prot(vma->vm_flags));
	if (exclusive && (flags & FAULT_FLAG_WRITE))
		entry = pte_mkdirty(maybe_mkwrite(entry, vma));
	else
		entry = pte_wrprotect(entry);
	set_pte(pte, entry);	/* was not present: nothing to flush */
	if ((flags & FAULT_FLAG_WRITE) && !pte_write(entry))
		ret |= do_wp_page(vma, address, pte);
	return ret;
	/* LAB(swap) END:
	 * (void)vma; (void)address; (void)pte; (void)flags;
	 * return VM_FAULT_SIGBUS;
	 */
}

/* ---- munmap's tables ------------------------------------------------ */

static bool pte_table_empty(const pte_t *table)
{
	for (int i = 0; i < PTRS_PER_TABLE; i++)
		if (pte_val(table[i]))
			return false;
	return true;
}

/* zpk/memory.h. No fault or walk can reach a cleared PMD (the mmap_lock
 * is held for writing), but a CPU's paging-structure cache may still
 * hold it: the gather frees the tables after its flush. */
void free_pgd_range(struct mmu_gather *tlb, unsigned long addr,
		    unsigned long end, unsigned long floor,
		    unsigned long ceiling)
{
	struct mm_struct *mm = tlb->mm;
	unsigned long lo = max(ALIGN_DOWN(addr, PMD_SIZE),
			       ALIGN_UP(floor, PMD_SIZE));
	unsigned long hi = min(ALIGN_UP(end, PMD_SIZE),
			       ALIGN_DOWN(ceiling, PMD_SIZE));
	unsigned long a, next;

	for (a = lo; a < hi; a = next) {
		pmd_t *pmd = __walk_pmd(mm, a, false, &next);
		pte_t *table;

		if (!pmd) {
			if (next <= a)
				break;
			continue;
		}
		next = a + PMD_SIZE;
		if (pmd_none(*pmd) || pmd_leaf(*pmd))
			continue;
		table = table_of(pmd_val(*pmd));
		if (!pte_table_empty(table))
			continue;
		spin_lock(&mm->page_table_lock);
		set_pmd(pmd, __pmd(0));
		mm->nr_ptes--;
		spin_unlock(&mm->page_table_lock);
		tlb_remove_table(tlb, table, a);
	}
}
