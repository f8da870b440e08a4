/* mm/internal.h — what the files of mm/ share with each other and no one
 * else (Linux's mm/internal.h): the prototypes only mm/ calls, file by
 * file, then the helpers they share: VMA list helpers, the flush range of
 * a walk, range_mapped, vma_modify, and the counts of a zero-page PTE
 * (the fault's, fork's, zap's and /dev/zero's: inlined into the fault).
 * mm/tests/ includes it too. */
#ifndef ZPK_MM_INTERNAL_H
#define ZPK_MM_INTERNAL_H

#include <zpk/err.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mm_verify.h>
#include <zpk/slab.h>
#include <zpk/swap.h>
#include <zpk/swapops.h>
#include <zpk/zero_page.h>

/* ---- pages (mm/page_alloc.c) ------------------------------------------- */

/*
 * Every page of map becomes PG_reserved, _refcount 1, _mapcount -1, and the
 * free lists are emptied; sets mem_map and max_pfn. Call once, before any
 * free_pfn_range().
 */
void mem_map_init(struct page *map, unsigned long nr_pfns);
/*
 * Gives the reserved frames [start, end) (end <= max_pfn) to the buddy
 * allocator in the largest naturally aligned blocks, merging with free
 * neighbours. BUGs if one of them is not PG_reserved. Not counted as PGFREE.
 */
void free_pfn_range(unsigned long start, unsigned long end);
/* Number of free blocks of this order (length of its free list). */
unsigned long nr_free_blocks(unsigned int order);
/* printk's the free blocks per order, like /proc/buddyinfo. */
void buddy_dump(void);

/* Copies the 4 KiB page at from to to (page-aligned direct-map addresses). */
void copy_page(void *to, const void *from);

/* Every CPU's list of free single pages back into the buddy (tests that
 * look at the free lists, and an allocation that found none). Interrupts
 * on. */
void drain_all_pages(void);

/* ---- boot memory (mm/memblock.c) --------------------------------------- */

/* Usable RAM from the multiboot2 map, minus the first MiB, the kernel
 * image, the boot information and the modules. */
void memblock_init(void);
/* Hands every byte memblock still owns to the buddy allocator. */
void memblock_release_to_buddy(void);

/* ---- VMAs (mm/mmap.c, mm/mlock.c) -------------------------------------- */

/*
 * brk(2) as Linux: moves mm->brk to newbrk (growing maps anonymous RW
 * memory, shrinking unmaps) and returns the new break; on failure (below
 * start_brk, into another mapping, no memory) returns the old one.
 */
unsigned long do_brk(struct mm_struct *mm, unsigned long newbrk);

/* find_vma, and *pprev = the VMA before it (or the last one, or NULL). */
struct vm_area_struct *find_vma_prev(struct mm_struct *mm, unsigned long addr,
				     struct vm_area_struct **pprev);
/*
 * Cuts vma in two at addr (page aligned, strictly inside). The new VMA is
 * the part below addr if new_below, else the part above; vma keeps the
 * other. 0, or -ENOMEM if mm already has sysctl_max_map_count VMAs or no
 * memory.
 */
int split_vma(struct mm_struct *mm, struct vm_area_struct *vma,
	      unsigned long addr, int new_below);
/*
 * Extends prev and/or next (neighbours of the hole [addr, end)) to cover
 * it if flags, file, pgoff and policy continue them; returns the VMA that
 * covers it now, or NULL (nothing changed). No accounting: the caller's.
 */
struct vm_area_struct *vma_merge(struct mm_struct *mm,
				 struct vm_area_struct *prev,
				 unsigned long addr, unsigned long end,
				 unsigned long vm_flags, struct file *file,
				 unsigned long pgoff,
				 const struct mempolicy *pol);
/* [start, start + len) gets vm_flags bits set, then cleared (madvise's
 * VM_DONTCOPY, VM_WIPEONFORK; mlock's), split off and merged as by
 * vma_modify. 0 or -ENOMEM (a hole). mmap_lock held for writing. */
int vma_modify_flags(struct mm_struct *mm, unsigned long start,
		     unsigned long len, unsigned long set, unsigned long clear);
/* mbind's policy pol for every VMA in [start, end) (holes skipped),
 * split off and merged as by mprotect (Linux's mbind_range). 0 or
 * -ENOMEM. */
int mbind_range(struct mm_struct *mm, unsigned long start,
		unsigned long end, const struct mempolicy *pol);
/* mlock/mlock2/munlock: gives the page-aligned range the lock flags
 * (VM_LOCKED, VM_LOCKED | VM_LOCKONFAULT, or 0 to unlock), splitting and
 * merging VMAs as mprotect does (Linux's apply_vma_lock_flags). 0 or
 * -ENOMEM (a hole). mmap_lock held for writing. */
int do_mlock(struct mm_struct *mm, unsigned long start, unsigned long len,
	     unsigned long lock_flags);

/* ---- page tables and faults (mm/memory.c) ------------------------------ */

/* pte_alloc_map, returning with the PTE's lock (*ptlp) held (Linux's
 * pte_alloc_map_lock); pte_unmap_unlock drops it. */
pte_t *pte_alloc_map_lock(struct mm_struct *mm, unsigned long addr,
			  spinlock_t **ptlp);
/* The RSS counter a mapped page counts in: MM_ANONPAGES for private
 * anonymous pages, MM_SHMEMPAGES for shared anonymous, else MM_FILEPAGES. */
int mm_counter(struct page *page);
/* UFFDIO_ZEROPAGE (mm/userfaultfd.c): maps at the none PTE pte what a
 * read fault maps there. 0 or VM_FAULT_OOM. */
vm_fault_t mfill_zeropage_pte(struct vm_area_struct *vma, unsigned long address,
			      pte_t *pte);

/* FOLL_NOZERO: clears a zero-page PTE at addr (true if there was one). */
bool flush_zero_pte(struct vm_area_struct *vma, unsigned long addr);

/* A zeroed page-table page (NULL: no memory) and its freeing; counted in
 * NR_PAGE_TABLE_PAGES, not in nr_ptes (the caller's). */
void *pgtable_alloc(void);
void pgtable_free(void *table);
/* The PMD entry for addr, allocating the tables above it (NULL: no
 * memory), or only if they exist (pmd_lookup). mmap_lock held. */
pmd_t *pmd_alloc_walk(struct mm_struct *mm, unsigned long addr);
pmd_t *pmd_lookup(struct mm_struct *mm, unsigned long addr);

/* ---- huge PMDs (mm/huge_memory.c) -------------------------------------- */

/* A range walk's hook for a huge PMD at addr, [addr, end) of it in the
 * walk (end within the same 2 MiB): the walk's answer, or WALK_PTES. */
#define WALK_PTES	0x7ffe
typedef int (*pmd_walk_fn)(struct mm_struct *mm, pmd_t *pmd,
			   unsigned long addr, unsigned long end,
			   pte_walk_fn fn, void *priv);
/* walk_page_range with pmd_fn for the huge PMDs (mprotect's
 * change_huge_pmd); walk_page_range's contract. */
int walk_page_range_pmd(struct mm_struct *mm, unsigned long start,
			unsigned long end, pte_walk_fn fn, pmd_walk_fn pmd_fn,
			void *priv);
/* fn on a copy of the PTE of each 4 KiB (walk_page_range_nosplit). */
int walk_huge_pmd_ptes(struct mm_struct *mm, pmd_t *pmd, unsigned long addr,
		       unsigned long end, pte_walk_fn fn, void *priv);
/* split_huge_pmd, then WALK_PTES (walk_page_range). */
int split_huge_pmd_walk(struct mm_struct *mm, pmd_t *pmd, unsigned long addr,
			unsigned long end, pte_walk_fn fn, void *priv);
/* The lock of the PTE at pte: its PTE table page's ptl (Linux's split
 * PTE lock, pte_lockptr; mm/memory.c says what it guards). */
spinlock_t *pte_lockptr(pte_t *pte);
/* The lock of a PMD entry: its PMD table page's ptl (Linux's split PMD
 * lock, pmd_lockptr). Inside the mmap_lock; the page_table_lock and the
 * allocator's nest inside it; never held with a PTE lock of the same
 * range but by a split, before its table is in. */
spinlock_t *pmd_lockptr(pmd_t *pmd);
/* The 4 KiB at addr of a huge PMD as a PTE would map it, marked by
 * _PAGE_PSE (pte_pmd_mapped); the huge zero page's as the small zero
 * page's, special. */
pte_t huge_pmd_pte(pmd_t pmd, unsigned long addr);
/* A huge PMD (if pmd still is one) becomes a PTE table of the same
 * pages: split_huge_pmd takes the PMD lock, the _locked form has it.
 * mmap_lock held; flushes the TLB. */
void split_huge_pmd(struct mm_struct *mm, pmd_t *pmd, unsigned long addr);
void __split_huge_pmd_locked(struct mm_struct *mm, pmd_t *pmd,
			     unsigned long haddr);
/* Splits the huge PMD that maps addr, if one does (split_vma: a huge PMD
 * never straddles two VMAs). mmap_lock held for writing. */
void split_huge_pmd_address(struct mm_struct *mm, unsigned long addr);
/* The PMD level of a fault: 0 or VM_FAULT_* (FALLBACK: the PTE level's
 * turn). mmap_lock held for reading, no other lock. */
vm_fault_t handle_huge_pmd_fault(struct vm_area_struct *vma,
				 unsigned long address, unsigned int flags);
struct mmu_gather;
/* mremap: a huge PMD moved whole to a none PMD entry (Linux's
 * move_huge_pmd). 0, or WALK_PTES. mmap_lock held for writing. */
int move_huge_pmd(struct mm_struct *mm, pmd_t *old_pmd, pmd_t *new_pmd,
		  unsigned long addr, struct mmu_gather *tlb);
/* A huge PMD a zap covers whole: 0 (counted into rss[]) or WALK_PTES. */
int zap_huge_pmd(struct mmu_gather *tlb, struct mm_struct *mm, pmd_t *pmd,
		 unsigned long haddr, long rss[NR_MM_COUNTERS]);
/* MADV_PAGEOUT of a THP (mm/vmscan.c): its huge PMD split when this mm
 * alone maps it (a pmd_walk_fn), then the THP into 512 order-0 pages if
 * table's PTEs are all that hold it (true; table's PTE lock held). */
int pageout_huge_pmd(struct mm_struct *mm, pmd_t *pmd, unsigned long addr,
		     unsigned long end, pte_walk_fn fn, void *priv);
bool split_huge_page_table(struct page *head, pte_t *table);
/* MADV_COLLAPSE (mm/khugepaged.c): may vma's ranges be collapsed (kind,
 * opt-outs, no userfaultfd, an aligned 2 MiB inside; the sysfs policy
 * aside); and the new THP mapped at the emptied pmd, table deposited.
 * mmap_lock held for writing. */
bool thp_vma_collapsible(struct vm_area_struct *vma);
void set_huge_pmd_collapsed(struct vm_area_struct *vma, pmd_t *pmd,
			    struct page *hpage, pte_t *table);
/* madvise(MADV_COLLAPSE) of [start, end) inside vma: 0 or -errno as
 * Linux 6.1's madvise_collapse. mmap_lock held for writing. */
long madvise_collapse(struct vm_area_struct *vma, unsigned long start,
		      unsigned long end);

/* ---- a page's mappings (mm/rmap.c) ------------------------------------- */

/* A fresh private page's first mapping (Linux's page_add_new_anon_rmap
 * with RMAP_EXCLUSIVE): this PTE's alone, so PageAnonExclusive. The
 * mapping has the caller's reference. */
void page_add_new_anon_rmap(struct page *page);
/* A file page gets one more mapping (Linux's page_add_file_rmap), with a
 * reference of its own; the page cache keeps its own, so mapped =
 * _refcount - 1. */
void page_add_file_rmap(struct page *page);
/* fork: one more PTE maps page; an anonymous page is no longer exclusive. */
void page_dup_rmap(struct page *page);
/* One PTE less maps page (zap, COW); the last makes it unmapped. BUGs if
 * the page was not mapped. A page in the swap cache takes its lock
 * (swapcache_remove_rmap, which calls __page_remove_rmap). */
void page_remove_rmap(struct page *page);
void __page_remove_rmap(struct page *page);
/* do_swap_page: one more PTE maps a page of the swap cache;
 * swap_cache_lock held. */
void page_add_anon_rmap(struct page *page, bool exclusive);

/* ---- swap (mm/swap_state.c, mm/vmscan.c, mm/memory.c) ------------------ */

/* A swap PTE's fault (mm/memory.c), as handle_pte_fault's callees. */
vm_fault_t do_swap_page(struct vm_area_struct *vma, unsigned long address,
			pte_t *pte, unsigned int flags);
/* The page of entry, read in if it is not in the swap cache (*major
 * then), in the cache and with a reference for the caller; or
 * ERR_PTR(-ENOMEM), (-EIO: the read failed), (-EAGAIN: the slot was
 * freed meanwhile, the PTE changed). Sleeps; no spinlock held. */
struct page *swapin_page(swp_entry_t entry, bool *major);
/* Maps page, found for the swap PTE entry, whose lock the caller holds
 * again: the PTE's slot reference goes; 1 if the page is now this PTE's
 * alone (out of the cache: write it at will), 0 if shared (read-only),
 * -EAGAIN if it left the cache meanwhile (fault again). */
int swap_cache_map(struct page *page, swp_entry_t entry);
/* page_remove_rmap of a page in the swap cache, under its lock. */
void swapcache_remove_rmap(struct page *page);
/* Reclaim (mm/vmscan.c): the watermarks in free pages (set when kswapd
 * starts; 0 before: kswapd_run, zpk/swap.h);
 * wakeup_kswapd (the allocator, any context) wakes it below low;
 * try_to_free_pages reclaims for a failed allocation (process context,
 * no spinlock: it sleeps) and says how many pages;
 * throttle_direct_reclaim, for an allocation that would take free memory
 * below min, may sleep too, but waits for no lock (its caller may hold
 * any sleeping one), and says whether min and the pages wanted are free. */
extern unsigned long min_wmark, low_wmark, high_wmark;
void wakeup_kswapd(void);
unsigned long try_to_free_pages(void);
bool throttle_direct_reclaim(unsigned long want);
/* Whether an allocation with gfp, made here and now, may reclaim (sleep):
 * mm/page_alloc.c; the slab asks before it allocates outside its lock. */
bool alloc_may_reclaim(gfp_t gfp);
/* MADV_PAGEOUT and MADV_COLD of [start, end) in vma (mm/vmscan.c): mm's
 * mmap_lock held for reading; sleeps (writes). */
void madvise_pageout_range(struct vm_area_struct *vma, unsigned long start,
			   unsigned long end, bool pageout);

/* ---- get_user_pages (mm/gup.c) ----------------------------------------- */

/* The page at address in vma if it can be used as flags say, else NULL
 * (the caller faults and tries again). */
struct page *follow_page(struct vm_area_struct *vma, unsigned long address,
			 unsigned int flags);
/* mlock/MAP_POPULATE: faults in the range, for write in private writable
 * VMAs (nothing in a VM_LOCKONFAULT one); 0, -ENOMEM or -EFAULT. */
int populate_vma_page_range(struct vm_area_struct *vma, unsigned long start,
			    unsigned long end);
/* mmap's flags ask for the pages now (MAP_POPULATE, locked memory)? */
bool mmap_populates(struct mm_struct *mm, unsigned long flags);

/* ---- the slab (mm/slab.c) ------------------------------------------- */

/* The cache kmalloc(size) takes objects from; NULL if size > 2048. */
struct kmem_cache *kmalloc_slab(size_t size);

/* Pages held by c's slabs. */
unsigned long kmem_cache_pages(struct kmem_cache *c);
/* Objects of c handed out and not yet freed. */
unsigned long kmem_cache_objs_inuse(struct kmem_cache *c);
/* Pages held by all caches and large kmallocs; equals NR_SLAB. */
unsigned long slab_total_pages(void);
/* printk a table like the first columns of /proc/slabinfo. */
void slab_stats_print(void);

/* ---- counters (mm/vmstat.c) ------------------------------------------- */

/* vmstat_format's lines through printk. */
void vmstat_print(void);

/* ---- the zero page (mm/zero_page.c) ------------------------------------ */

/* zero_page=refcount's reference and mapping for one PTE (get_page and
 * _mapcount++), and their undoing; each counts ZERO_PAGE_REFCOUNT_OPS. */
void zero_page_get(void);
void zero_page_put(void);
/* Marks the zero page's struct page PG_zero|PG_reserved; after mem_map. */
void zero_page_init(void);

/* ---- the invariant checker (mm/mm_verify.c) ---------------------------- */

/* mm's counters (each of rss_stat, hiwater_rss) and PTE sanity (none
 * outside a VMA, no writable zero page or COW-shared page). Returns the
 * differences found, added to r; printk's the first few. */
int mm_verify_report(struct mm_struct *mm, struct mm_verify_report *r);
/* Every page's _mapcount equals the PTEs mapping it in mms[0..n), which
 * must be every mm there is, and its _refcount covers them. */
int mm_verify_pages_report(struct mm_struct **mms, int n,
			   struct mm_verify_report *r);
/*
 * The check at exit, in time linear in mm alone: mm_verify_report, then
 * each page mm maps has at least mm's own mappings in its _mapcount and
 * references for all of them (exactly as many for an anonymous page), and
 * the zero page's count. A page that another mm also maps is counted
 * exactly only by mm_verify_pages_report: the full sweep, on demand.
 * Every mm's mmap_lock held for writing (mm_verify_exit takes them).
 */
int mm_verify_exit_report(struct mm_struct *mm, struct mm_verify_report *r);
/* BUGs with the first difference if r has any under mm_verify=exit
 * (=warn, the labs' grader, or off: prints their number instead, so
 * that a test fails, not the kernel). */
void mm_verify_bug(struct mm_verify_report *r);

/* ---- helpers shared inside mm/ ------------------------------------- */

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
