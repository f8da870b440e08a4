/* zpk/mm.h — mem_map and the buddy page allocator's interface (pfn/page/
 * address conversions, gfp flags, alloc_pages/__free_pages, refcounts) and
 * the VMA interface of mm/mmap.c (find_vma, do_mmap, expand_stack, ...). */
#ifndef ZPK_MM_H
#define ZPK_MM_H

#include <asm/page.h>
#include <zpk/bug.h>
#include <zpk/mm_types.h>
#include <zpk/mman.h>

/* One struct page per frame, indexed by pfn, 0 .. max_pfn - 1. */
extern struct page *mem_map;
extern unsigned long max_pfn;

static inline struct page *pfn_to_page(unsigned long pfn)
{
	return mem_map + pfn;
}

static inline unsigned long page_to_pfn(const struct page *page)
{
	return (unsigned long)(page - mem_map);
}

static inline bool pfn_valid(unsigned long pfn)
{
	return pfn < max_pfn;
}

static inline phys_addr_t page_to_phys(const struct page *page)
{
	return PFN_PHYS(page_to_pfn(page));
}

/* The page's direct-map address: every frame is mapped there. */
static inline void *page_address(const struct page *page)
{
	return __va(page_to_phys(page));
}

/* addr must be a direct-map (or kernel-image) address. */
static inline struct page *virt_to_page(const void *addr)
{
	return pfn_to_page(PHYS_PFN(__pa(addr)));
}

/*
 * Allocation flags (Linux's gfp_t). GFP_KERNEL may sleep: below min free
 * the allocator reclaims first (throttle_direct_reclaim, unless its
 * caller holds the big kernel lock), and it reports one made with a
 * spinlock held or interrupts off, as Linux's might_sleep_if().
 * GFP_ATOMIC is for callers that hold one. GFP_HIGHUSER is a user page's
 * (Linux's GFP_HIGHUSER_MOVABLE): it never takes the pages under min,
 * which are the kernel's; it fails instead, and the fault's OOM path
 * reclaims or kills.
 */
typedef unsigned int gfp_t;
#define GFP_KERNEL	0u
#define __GFP_ZERO	0x100u	/* clear_page() every page handed out */
#define __GFP_ATOMIC	0x200u	/* the caller may not sleep */
#define __GFP_USER	0x400u	/* fails rather than go under min */
#define GFP_ATOMIC	__GFP_ATOMIC
#define GFP_HIGHUSER	(GFP_KERNEL | __GFP_USER)

#define MAX_ORDER	11	/* orders 0 .. MAX_ORDER - 1: 4 KiB .. 4 MiB */
#define MAX_ORDER_NR_PAGES (1UL << (MAX_ORDER - 1))

#define PAGE_POISON	0xaa	/* freed pages are filled with it (Linux's) */
extern bool page_poisoning;	/* page_poison=1; tests may set it */

/* Physical memory at boot (mm/init.c): memblock, the kernel's page
 * tables, mem_map, the zero page, the buddy and slab allocators. */
void mm_init(void);
/* bench=mm (mm/bench_page_alloc.c): asked for, and the figures printed. */
bool bench_requested(void);
void bench_run(void);

/*
 * 2^order contiguous, naturally aligned frames, or NULL if no free block is
 * big enough (or order >= MAX_ORDER). The first page has _refcount 1, the
 * others 0 (as in Linux, the block is freed through its first page); all
 * have _mapcount -1 and flags 0. __GFP_ZERO clears them.
 */
struct page *alloc_pages(gfp_t gfp, unsigned int order);
#define alloc_page(gfp)	alloc_pages(gfp, 0)
/* alloc_pages made a compound page (Linux's __GFP_COMP): the first page
 * PG_head, the others tails pointing at it; freed as one by put_page. */
struct page *alloc_compound_pages(gfp_t gfp, unsigned int order);

/*
 * Drops one reference, as Linux does; at zero the block goes back to the
 * free lists. BUGs, naming the pfn and the caller, if the page is already
 * free or has no reference, and when freeing one that is PG_reserved, still
 * mapped, PG_slab/PG_locked, or was allocated at another order.
 */
void __free_pages(struct page *page, unsigned int order);
#define __free_page(page) __free_pages(page, 0)

/* The same with direct-map addresses; free_pages(0, n) does nothing. */
unsigned long __get_free_pages(gfp_t gfp, unsigned int order);
#define __get_free_page(gfp) __get_free_pages(gfp, 0)
/* One zeroed page's direct-map address, or 0. */
unsigned long get_zeroed_page(gfp_t gfp);
void free_pages(unsigned long addr, unsigned int order);
#define free_page(addr)	free_pages(addr, 0)

/* Zeroes the 4 KiB page at addr and counts PGZERO. */
void clear_page(void *addr);

/* Free pages right now, exact (NR_FREE_PAGES): the buddy's and the
 * per-CPU lists'. */
unsigned long nr_free_pages(void);

/* Reference counts: atomics, since CPUs take and drop references to the
 * same page at once (a COW page after fork, the zero page under
 * refcount, a file's page). A compound page has one count, its head's
 * (Linux's): the count of a tail is its head's. */
static inline int page_count(const struct page *page)
{
	return atomic_read(&compound_head(page)->_refcount);
}

static inline void set_page_count(struct page *page, int v)
{
	atomic_set(&page->_refcount, v);
}

static inline void page_ref_inc(struct page *page)
{
	atomic_inc(&compound_head(page)->_refcount);
}

static inline void page_ref_add(struct page *page, int nr)
{
	atomic_add(nr, &compound_head(page)->_refcount);
}

/* True if this dropped the last reference. */
static inline bool page_ref_dec_and_test(struct page *page)
{
	return atomic_dec_and_test(&page->_refcount);
}

/* PMDs mapping page's compound page (0 for a small page). */
static inline int compound_mapcount(const struct page *page)
{
	return PageCompound(page) ?
	       atomic_read(&compound_head(page)->compound_mapcount) : 0;
}

/* Number of PTEs and PMDs mapping the page (_mapcount counts from -1;
 * a PMD maps every 4 KiB of its compound page: Linux 6.1's sum). */
static inline int page_mapcount(const struct page *page)
{
	return atomic_read(&page->_mapcount) + 1 + compound_mapcount(page);
}

/* Every mapping of page's compound page, its PMDs and each subpage's
 * PTEs (Linux 6.1's total_mapcount); a small page's own. A THP holds a
 * reference per mapping, so this is its _refcount when nothing else
 * holds it. */
static inline int total_mapcount(struct page *page)
{
	struct page *head = compound_head(page);
	int n;

	if (!PageCompound(page))
		return page_mapcount(page);
	n = atomic_read(&head->compound_mapcount);
	for (unsigned long i = 0; i < (1UL << head->order); i++)
		n += atomic_read(&head[i]._mapcount) + 1;
	return n;
}

static inline void page_mapcount_reset(struct page *page)
{
	atomic_set(&page->_mapcount, -1);
}

/* page must already hold a reference: taking one on a free page BUGs. */
static inline void get_page(struct page *page)
{
	if (unlikely(page_count(page) <= 0))
		BUGF("get_page on pfn %#lx with _refcount %d",
		     page_to_pfn(page), page_count(page));
	page_ref_inc(page);
}

/*
 * Drops a reference (the head's, for a subpage of a compound page); the
 * last one frees the block at the order recorded when it was allocated
 * (its first page knows it). Same BUGs as __free_pages.
 */
void put_page(struct page *page);

/*
 * ---- the mmap_lock (Linux's include/linux/mmap_lock.h) ----
 * For reading: a fault, get_user_pages, a /proc reader; for writing:
 * whatever changes the VMAs (mmap, munmap, mprotect, brk, madvise's
 * flags, mlock), fork (both mms), exec's mappings, exit_mmap, and
 * mm_verify (every mm). Never hold one while taking another, but as fork
 * and mm_verify do (older mm first), nor while calling mmput. It nests
 * inside the big kernel lock (which a sleeper lets go) and mmlist_lock;
 * a PTE lock, the page_table_lock and the allocator's locks nest inside
 * it, and a fault takes the big kernel lock inside it for a file VMA
 * (safe: the big kernel lock is never held across a sleep). Nobody may
 * sleep for a userfaultfd's reader while holding it (docs/smp.md).
 */
static __fault_inline void mmap_read_lock(struct mm_struct *mm)
{
	down_read(&mm->mmap_lock);
}
static __fault_inline void mmap_read_unlock(struct mm_struct *mm)
{
	up_read(&mm->mmap_lock);
}
static inline void mmap_write_lock(struct mm_struct *mm)
{
	down_write(&mm->mmap_lock);
}
static inline void mmap_write_unlock(struct mm_struct *mm)
{
	up_write(&mm->mmap_lock);
}

/* The CPUs that may hold mm's translations (Linux's mm_cpumask). */
static inline struct cpumask *mm_cpumask(struct mm_struct *mm)
{
	return &mm->cpu_bitmap;
}

/* ---- The VMA interface (mm/mmap.c), as Linux keeps it in linux/mm.h ---- */

#define VM_STACK	VM_GROWSDOWN

/* Private and could be written: its pages are copied on write. */
static inline bool is_cow_mapping(unsigned long flags)
{
	return (flags & (VM_SHARED | VM_MAYWRITE)) == VM_MAYWRITE;
}

/* A VMA whose writes must be seen (Linux's vma_soft_dirty_enabled): its
 * VM_SOFTDIRTY went at the last clear_refs, so only a soft-dirty PTE may
 * be writable there and the first write to any other one faults. */
static inline bool vma_soft_dirty_enabled(const struct vm_area_struct *vma)
{
	return !(vma->vm_flags & VM_SOFTDIRTY);
}

static inline unsigned long vma_pages(const struct vm_area_struct *vma)
{
	return (vma->vm_end - vma->vm_start) >> PAGE_SHIFT;
}

/* The page of vma's file that addr maps (Linux's linear_page_index). */
static inline unsigned long linear_page_index(const struct vm_area_struct *vma,
					      unsigned long addr)
{
	return vma->vm_pgoff + ((addr - vma->vm_start) >> PAGE_SHIFT);
}

/* The cache every vm_area_struct comes from (tests count its objects). */
extern struct kmem_cache *vm_area_cachep;
/* /proc/sys/vm/max_map_count: the most VMAs a split or a new mapping may
 * leave (Linux's checks: mmap and brk refuse above it, splits at it). */
extern int sysctl_max_map_count;

/* An empty address space: no VMAs, counters 0, mmap_base = MMAP_BASE. */
void mm_init_vmas(struct mm_struct *mm);
/* Frees every VMA (calling unmap_page_range on each); counters 0. */
void exit_mmap_vmas(struct mm_struct *mm);

/* The first VMA with vm_end > addr (it may start above addr), or NULL. */
struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr);
/* The first VMA overlapping [start, end), or NULL. */
struct vm_area_struct *find_vma_intersection(struct mm_struct *mm,
					     unsigned long start,
					     unsigned long end);

/*
 * Where a mapping of len bytes can go: addr itself for MAP_FIXED (-EINVAL
 * if unaligned), else the page-aligned hint if that range is free, else the
 * highest free gap below mm->mmap_base, else bottom-up from
 * TASK_UNMAPPED_BASE. -ENOMEM if none. The range is not reserved.
 */
unsigned long get_unmapped_area(struct mm_struct *mm, unsigned long addr,
				unsigned long len, unsigned long flags);

/*
 * mmap(2): maps len bytes (rounded up to pages) and returns the address, or
 * -errno as Linux: -EINVAL for len 0, not exactly one of MAP_SHARED and
 * MAP_PRIVATE, or MAP_FIXED at an unaligned addr; -ENOMEM if there is no
 * room or too many VMAs; -EEXIST for MAP_FIXED_NOREPLACE over a mapping;
 * -EPERM for MAP_FIXED below MMAP_MIN_ADDR. MAP_FIXED replaces what was
 * there. file NULL is anonymous memory; pgoff is in pages.
 */
long do_mmap(struct mm_struct *mm, unsigned long addr, unsigned long len,
	     unsigned long prot, unsigned long flags, struct file *file,
	     unsigned long pgoff);
/* do_mmap under mm's mmap_lock for writing (Linux's vm_mmap): the
 * kernel's own mappings, exec's segments and stack. */
long vm_mmap(struct mm_struct *mm, unsigned long addr, unsigned long len,
	     unsigned long prot, unsigned long flags, struct file *file,
	     unsigned long pgoff);
/*
 * The VMA part of mmap: [addr, addr + len) becomes a mapping of file at
 * pgoff with vm_flags and memory policy pol (NULL: MPOL_DEFAULT; mremap
 * passes the old VMA's), whatever was there unmapped first, merged with
 * a neighbour that continues it, accounted. addr or -ENOMEM.
 */
long mmap_region(struct mm_struct *mm, unsigned long addr, unsigned long len,
		 unsigned long vm_flags, struct file *file, unsigned long pgoff,
		 const struct mempolicy *pol);
/* For an f_op->mmap, on the new VMA (mmap_region's locks): vma becomes
 * private anonymous memory, its file's reference dropped (Linux's
 * vma_set_anonymous, which keeps the file). */
void vma_set_anonymous(struct vm_area_struct *vma);
/* For an f_op->mmap, on the new VMA: vma becomes a mapping of a fresh
 * shmem file of its size, in place of its file (Linux's
 * shmem_zero_setup): shared anonymous memory. 0 or -ENOMEM. */
int shmem_zero_setup(struct vm_area_struct *vma);
/*
 * munmap(2): unmaps whatever lies in [start, start + len), splitting VMAs
 * that straddle the ends. 0 (also for a hole), -EINVAL for an unaligned
 * start, len 0 or a range outside user space, -ENOMEM if a split fails.
 */
int do_munmap(struct mm_struct *mm, unsigned long start, unsigned long len);
/*
 * mprotect(2): sets the PROT_* of [start, start + len), splitting VMAs at
 * the ends and merging with equal neighbours. -EINVAL for unaligned start
 * or unknown prot bits, -ENOMEM (and nothing changed) if any part of the
 * range is unmapped, -EACCES if a VM_MAY* bit forbids it. len 0 is 0.
 */
int do_mprotect(struct mm_struct *mm, unsigned long start, unsigned long len,
		unsigned long prot);
/* The flags mlock sets: VM_LOCKED, or VM_LOCKED | VM_LOCKONFAULT. */
#define VM_LOCKED_MASK	(VM_LOCKED | VM_LOCKONFAULT)
/* [start, end), inside vma, gets newflags and the userfaultfd ctx
 * (UFFDIO_REGISTER, _UNREGISTER): split off, set, merged with neighbours
 * that have both the same (Linux's vma_modify_flags_uffd). 0 or -ENOMEM;
 * vma may be gone after it. mmap_lock held for writing. */
int vma_modify_flags_uffd(struct mm_struct *mm, struct vm_area_struct *vma,
			  unsigned long start, unsigned long end,
			  unsigned long newflags, struct userfaultfd_ctx *ctx);
/* Adds npages of a VMA with flags to mm's *_vm counters (negative:
 * takes them off); fork uses it for the VMAs it does not copy. */
void vm_stat_account(struct mm_struct *mm, unsigned long flags,
		     long npages);
/* Puts vma, set up and not overlapping any, into mm's list and tree. */
void vma_link(struct mm_struct *mm, struct vm_area_struct *vma);

/*
 * A fault at address below vma, a VM_GROWSDOWN stack: moves vm_start down
 * to cover it, unless that makes the stack larger than STACK_RLIMIT or
 * brings it within STACK_GUARD_GAP of the VMA below (Linux's rules).
 * 0, -EFAULT (not a stack, or not below it) or -ENOMEM.
 */
int expand_stack(struct vm_area_struct *vma, unsigned long address);
#define STACK_RLIMIT	(8UL << 20)	/* RLIMIT_STACK: 8 MiB */
#define STACK_GUARD_GAP	(256UL << PAGE_SHIFT)	/* Linux's default */

/* BUGs unless mm's VMAs are sorted, non-empty, page aligned, in user space,
 * non-overlapping, owned by mm, mm_rb is a valid red-black tree holding
 * the list's VMAs in its order, and map_count and the *_vm counters agree. */
void validate_mm(struct mm_struct *mm);

/*
 * The page tables' side of munmap (mm/memory.c) and mprotect
 * (mm/mprotect.c), called by mm/mmap.c with the VMAs still in place:
 * [start, end) is no longer mapped (drop its PTEs; tlb, an mmu_gather,
 * flushes them and frees the pages at tlb_finish_mmu), or now has
 * vm_flags newflags (rewrite its PTEs, one TLB flush for the range).
 */
struct mmu_gather;
void unmap_page_range(struct mmu_gather *tlb, struct mm_struct *mm,
		      unsigned long start, unsigned long end);
/* cp_flags (Linux's): also set, or clear, the uffd-wp bits. */
#define MM_CP_UFFD_WP		(1U << 2)
#define MM_CP_UFFD_WP_RESOLVE	(1U << 3)
void change_protection(struct mm_struct *mm, unsigned long start,
		       unsigned long end, unsigned long newflags,
		       unsigned int cp_flags);

#endif
