/* zpk/mman.h — mmap's ABI (PROT_*, MAP_*, MADV_*, Linux x86-64 values), the
 * user address-space layout, and the VMA interface of mm/mmap.c. */
#ifndef ZPK_MMAN_H
#define ZPK_MMAN_H

#include <asm/page.h>
#include <zpk/types.h>
#include <zpk/mm_types.h>

#define PROT_NONE	0x0
#define PROT_READ	0x1
#define PROT_WRITE	0x2
#define PROT_EXEC	0x4

#define MAP_SHARED		0x01
#define MAP_PRIVATE		0x02
#define MAP_TYPE		0x0f	/* the SHARED/PRIVATE field */
#define MAP_FIXED		0x10
#define MAP_ANONYMOUS		0x20
#define MAP_ANON		MAP_ANONYMOUS
#define MAP_GROWSDOWN		0x0100
#define MAP_DENYWRITE		0x0800
#define MAP_EXECUTABLE		0x1000
#define MAP_LOCKED		0x2000
#define MAP_NORESERVE		0x4000
#define MAP_POPULATE		0x8000
#define MAP_NONBLOCK		0x10000
#define MAP_STACK		0x20000
#define MAP_FIXED_NOREPLACE	0x100000

#define MADV_NORMAL	0
#define MADV_RANDOM	1
#define MADV_SEQUENTIAL	2
#define MADV_WILLNEED	3
#define MADV_DONTNEED	4
#define MADV_FREE	8
#define MADV_POPULATE_READ	22	/* fault in for read: zero pages */
#define MADV_POPULATE_WRITE	23	/* fault in for write: real pages */

#define MCL_CURRENT	1	/* mlockall: lock what is mapped now */
#define MCL_FUTURE	2	/* ... and what will be mapped */
#define MCL_ONFAULT	4

/* Layout: user space ends one page below the canonical-address hole. */
#define TASK_SIZE		0x00007ffffffff000UL
#define STACK_TOP		TASK_SIZE	/* stack grows down from here */
#define MMAP_BASE		0x00007f0000000000UL	/* top-down below */
#define TASK_UNMAPPED_BASE	PAGE_ALIGN(TASK_SIZE / 3)	/* bottom-up */
#define MMAP_MIN_ADDR		0x10000UL	/* Linux's mmap_min_addr */
#define MAX_MAP_COUNT		65530		/* Linux's max_map_count */

#define VM_STACK	VM_GROWSDOWN

static inline unsigned long vma_pages(const struct vm_area_struct *vma)
{
	return (vma->vm_end - vma->vm_start) >> PAGE_SHIFT;
}

/* The cache every vm_area_struct comes from (tests count its objects). */
extern struct kmem_cache *vm_area_cachep;

/* An empty address space: no VMAs, counters 0, mmap_base = MMAP_BASE. */
void mm_init_vmas(struct mm_struct *mm);
/* Frees every VMA (calling unmap_page_range_hook on each); counters 0. */
void exit_mmap_vmas(struct mm_struct *mm);

/* The first VMA with vm_end > addr (it may start above addr), or NULL. */
struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr);
/* find_vma, and *pprev = the VMA before it (or the last one, or NULL). */
struct vm_area_struct *find_vma_prev(struct mm_struct *mm, unsigned long addr,
				     struct vm_area_struct **pprev);
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
/* mlock/munlock: sets or clears VM_LOCKED on the page-aligned range,
 * splitting and merging VMAs as mprotect does. 0 or -ENOMEM (a hole). */
int do_mlock(struct mm_struct *mm, unsigned long start, unsigned long len,
	     bool lock);
/*
 * brk(2) as Linux: moves mm->brk to newbrk (growing maps anonymous RW
 * memory, shrinking unmaps) and returns the new break; on failure (below
 * start_brk, into another mapping, no memory) returns the old one.
 */
unsigned long do_brk(struct mm_struct *mm, unsigned long newbrk);

/*
 * Cuts vma in two at addr (page aligned, strictly inside). The new VMA is
 * the part below addr if new_below, else the part above; vma keeps the
 * other. 0 or -ENOMEM.
 */
int split_vma(struct mm_struct *mm, struct vm_area_struct *vma,
	      unsigned long addr, int new_below);
/*
 * Extends prev and/or next (neighbours of the hole [addr, end)) to cover
 * it if flags, file and pgoff continue them; returns the VMA that covers
 * it now, or NULL (nothing changed). No accounting: the caller's job.
 */
struct vm_area_struct *vma_merge(struct mm_struct *mm,
				 struct vm_area_struct *prev,
				 unsigned long addr, unsigned long end,
				 unsigned long vm_flags, struct file *file,
				 unsigned long pgoff);

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
 * non-overlapping, owned by mm, and map_count and the *_vm counters agree. */
void validate_mm(struct mm_struct *mm);

/*
 * Page-table hooks, weak no-ops in mm/mmap.c for the fault code to replace:
 * [start, end) is no longer mapped (drop its PTEs and pages), or now has
 * vm_flags newflags (rewrite its PTEs).
 */
void unmap_page_range_hook(struct mm_struct *mm, unsigned long start,
			   unsigned long end);
void change_protection_hook(struct mm_struct *mm, unsigned long start,
			    unsigned long end, unsigned long newflags);

#endif
