/* mm/internal.h — what the files of mm/ share with each other and no one
 * else (Linux's mm/internal.h): VMA list helpers, the flush range of a
 * walk, range_mapped, vma_modify. */
#ifndef ZPK_MM_INTERNAL_H
#define ZPK_MM_INTERNAL_H

#include <zpk/mm.h>

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

#endif
