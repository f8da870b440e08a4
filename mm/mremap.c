/* mm/mremap.c — mremap(2) as Linux's mm/mremap.c: shrink, grow in place,
 * or move a mapping by moving its PTEs (never copying its pages). */
#include <asm/tlb.h>
#include <zpk/errno.h>
#include <zpk/huge_mm.h>
#include <zpk/gup.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mman.h>
#include <zpk/sched.h>
#include <zpk/swapops.h>
#include <zpk/syscalls.h>
#include <zpk/userfaultfd_k.h>
#include "internal.h"

/* One move of PTEs: from addr to addr + delta in mm; the old PTEs it
 * cleared are flushed once through tlb; moved is the bytes done. */
struct move_ctx {
	struct mm_struct *mm;
	unsigned long delta;
	unsigned long start, moved;
	struct mmu_gather tlb;
};

/*
 * Moves one PTE to the same place in the new range (a walk_page_range
 * fn). The entry goes over unchanged but for the soft-dirty bit, which
 * it gains so that a tracker sees the page moved (Linux's
 * move_soft_dirty_pte): a special zero PTE stays special, a refcounted
 * one keeps its reference, a COW-shared page stays shared and read-only,
 * a swap PTE keeps its slot (and its count); no page, rmap or RSS
 * counter changes, as in Linux's move_ptes.
 * -ENOMEM if the new page table cannot be had.
 */
static int move_one_pte(pte_t *old_pte, unsigned long addr, void *priv)
{
	struct move_ctx *mc = priv;
	pte_t *new_pte = pte_alloc_map(mc->mm, addr + mc->delta);
	pte_t entry = *old_pte;

	if (!new_pte)
		return -ENOMEM;
	pte_clear(old_pte);
	if (pte_present(entry))
		tlb_remove_tlb_entry(&mc->tlb, old_pte, addr);
	if (!is_swap_pte(entry))	/* a swap PTE's bit 11 is its slot's */
		entry = pte_mksoft_dirty(entry);
	set_pte(new_pte, entry);	/* was none */
	mc->moved = addr + PAGE_SIZE - mc->start;
	return 0;
}

/* May the huge PMD at [addr, end) move whole to addr + delta? */
static bool huge_pmd_moves_whole(unsigned long addr, unsigned long end,
				 unsigned long delta)
{
	return !(addr & ~HPAGE_PMD_MASK) && end - addr == HPAGE_PMD_SIZE &&
	       !((addr + delta) & ~HPAGE_PMD_MASK);
}

/*
 * A huge PMD on the move's way (a pmd_walk_fn): moved whole if the move
 * covers it and its new place is 2 MiB-aligned with nothing mapped
 * there (move_huge_pmd), else split and its PTEs moved one by one.
 */
static int move_huge_pmd_walk(struct mm_struct *mm, pmd_t *pmd,
			      unsigned long addr, unsigned long end,
			      pte_walk_fn fn, void *priv)
{
	struct move_ctx *mc = priv;
	unsigned long new_addr = addr + mc->delta;
	pmd_t *new_pmd;
	int ret;

	if (!huge_pmd_moves_whole(addr, end, mc->delta) ||
	    !(new_pmd = pmd_alloc_walk(mm, new_addr)) || !pmd_none(*new_pmd))
		return split_huge_pmd_walk(mm, pmd, addr, end, fn, priv);
	ret = move_huge_pmd(mm, pmd, new_pmd, addr, &mc->tlb);
	if (!ret)
		mc->moved = end - mc->start;
	return ret;
}

/*
 * The new range's PTE tables, wherever the old range has PTEs to move,
 * allocated before the walk takes the old tables' locks: move_one_pte
 * runs under one, and a GFP_KERNEL allocation may not (Linux's
 * move_page_tables allocates each new table before it locks the old).
 * A huge PMD that will move whole needs none. false if out of memory.
 */
static bool alloc_new_tables(struct mm_struct *mm, unsigned long old_addr,
			     unsigned long delta, unsigned long len)
{
	unsigned long addr, next, end = old_addr + len;

	for (addr = old_addr; addr < end; addr = next) {
		pmd_t *pmd = pmd_lookup(mm, addr);

		next = min((addr + PMD_SIZE) & ~(PMD_SIZE - 1), end);
		if (!pmd || pmd_none(*pmd) ||
		    (pmd_leaf(*pmd) && huge_pmd_moves_whole(addr, next, delta)))
			continue;
		/* An unaligned move spreads one old table over two new. */
		if (!pte_alloc_map(mm, addr + delta) ||
		    !pte_alloc_map(mm, next - 1 + delta))
			return false;
	}
	return true;
}

/*
 * Moves the PTEs of [old_addr, old_addr + len) to new_addr (Linux's
 * move_page_tables); the ranges do not overlap and the new one has no
 * PTEs. The old range is flushed from the TLB before it returns. Returns
 * the bytes moved: less than len only when a page table could not be
 * allocated (0 if it was one of those allocated first), and then
 * everything up to there has moved.
 */
static unsigned long move_page_tables(struct mm_struct *mm,
				      unsigned long old_addr,
				      unsigned long new_addr,
				      unsigned long len)
{
	struct move_ctx mc = { .mm = mm, .delta = new_addr - old_addr,
			       .start = old_addr };
	int err;

	if (!alloc_new_tables(mm, old_addr, mc.delta, len))
		return 0;
	tlb_gather_mmu(&mc.tlb, mm);
	err = walk_page_range_pmd(mm, old_addr, old_addr + len, move_one_pte,
				  move_huge_pmd_walk, &mc);
	tlb_finish_mmu(&mc.tlb);
	return err ? mc.moved : len;
}

/*
 * The new VMA of a move is like the old one, the userfaultfd registration
 * aside (mmap_region makes it unregistered): ctx, if the uffd keeps it
 * (UFFD_FEATURE_EVENT_REMAP), registers it again. 0 or -ENOMEM.
 */
static long move_vma_region(struct mm_struct *mm, struct vm_area_struct *vma,
			    unsigned long new_addr, unsigned long new_len,
			    unsigned long pgoff, struct userfaultfd_ctx *ctx)
{
	unsigned long vm_flags = vma->vm_flags;
	long ret = mmap_region(mm, new_addr, new_len,
			       vm_flags & ~__VM_UFFD_FLAGS, vma->vm_file,
			       pgoff, &vma->vm_policy);

	if (IS_ERR_VALUE(ret) || !ctx)
		return IS_ERR_VALUE(ret) ? ret : 0;
	vma = find_vma(mm, new_addr);
	ret = vma_modify_flags_uffd(mm, vma, new_addr, new_addr + new_len,
				    vm_flags, ctx);
	if (ret)
		do_munmap(mm, new_addr, new_len);
	return ret;
}

/*
 * Linux's move_vma: a VMA for [new_addr, + new_len) like vma's part at
 * old_addr, the PTEs of [old_addr, + old_len) moved into it, then the old
 * range unmapped, or (MREMAP_DONTUNMAP) left mapped and empty, and
 * unlocked. Returns new_addr or -ENOMEM (nothing changed). A registered
 * VMA's uffd that asked to hear of the move goes in *ufp: sys_mremap
 * sends it UFFD_EVENT_REMAP once the mmap_lock is released.
 */
static long move_vma(struct mm_struct *mm, struct vm_area_struct *vma,
		     unsigned long old_addr, unsigned long old_len,
		     unsigned long new_len, unsigned long new_addr,
		     unsigned long flags, struct userfaultfd_ctx **ufp)
{
	unsigned long vm_flags = vma->vm_flags;
	unsigned long pgoff = linear_page_index(vma, old_addr);
	struct userfaultfd_ctx *uf;
	unsigned long moved;
	long ret;

	/* Linux's: room for the unmap below to split a VMA into three. */
	if (mm->map_count >= sysctl_max_map_count - 3)
		return -ENOMEM;
	mremap_userfaultfd_prep(vma, &uf);
	ret = move_vma_region(mm, vma, new_addr, new_len, pgoff, uf);
	if (ret)
		goto out;
	moved = move_page_tables(mm, old_addr, new_addr, old_len);
	if (moved < old_len) {
		/* The old tables are all there still: moving back cannot
		 * fail. Then the new VMA goes, empty. */
		move_page_tables(mm, new_addr, old_addr, moved);
		do_munmap(mm, new_addr, new_len);
		ret = -ENOMEM;
		goto out;
	}
	if (!(flags & MREMAP_DONTUNMAP)) {
		if (old_len)
			do_munmap(mm, old_addr, old_len);
	} else if (vm_flags & VM_LOCKED) {
		do_mlock(mm, old_addr, old_len, 0);
	}
	ret = new_addr;
out:
	*ufp = uf;	/* sys_mremap completes the event, unlocked */
	return ret;
}

/*
 * Linux's vma_to_resize: the VMA holding [addr, addr + old_len), with
 * its errnos: -EFAULT if addr is not mapped or the range runs past the
 * VMA's end, -EINVAL to duplicate (old_len 0) a private mapping.
 */
static struct vm_area_struct *vma_to_resize(struct mm_struct *mm,
					    unsigned long addr,
					    unsigned long old_len, long *err)
{
	struct vm_area_struct *vma = find_vma(mm, addr);

	*err = -EFAULT;
	if (!vma || vma->vm_start > addr)
		return NULL;
	*err = -EINVAL;
	if (!old_len && !(vma->vm_flags & (VM_SHARED | VM_MAYSHARE)))
		return NULL;
	*err = -EFAULT;
	if (old_len > vma->vm_end - addr)
		return NULL;
	*err = 0;
	return vma;
}

/* Whether vma can grow by delta where it is: nothing mapped above it
 * up to there, and still in user space (Linux's vma_expandable). */
static bool vma_expandable(struct mm_struct *mm, struct vm_area_struct *vma,
			   unsigned long delta)
{
	unsigned long end = vma->vm_end + delta;

	if (end < vma->vm_end || end > TASK_SIZE)
		return false;
	return !find_vma_intersection(mm, vma->vm_end, end);
}

/* MREMAP_FIXED or MREMAP_DONTUNMAP: a move to new_addr (or a free
 * address for DONTUNMAP alone); Linux's mremap_to. */
static long mremap_to(struct mm_struct *mm, unsigned long addr,
		      unsigned long old_len, unsigned long new_addr,
		      unsigned long new_len, unsigned long flags,
		      struct userfaultfd_ctx **ufp)
{
	struct vm_area_struct *vma;
	long err;

	if (new_addr & ~PAGE_MASK)
		return -EINVAL;
	if (new_len > TASK_SIZE || new_addr > TASK_SIZE - new_len)
		return -EINVAL;
	if (addr + old_len > new_addr && new_addr + new_len > addr)
		return -EINVAL;		/* the ranges overlap */
	/* Linux's: both unmaps below may split a VMA, and move_vma wants
	 * its own room after them, so fail before anything is unmapped. */
	if (mm->map_count + 2 >= sysctl_max_map_count - 3)
		return -ENOMEM;
	if (!vma_to_resize(mm, addr, old_len, &err))
		return err;
	if (flags & MREMAP_FIXED) {
		if (new_addr < MMAP_MIN_ADDR)
			return -EPERM;
		err = do_munmap(mm, new_addr, new_len);
		if (err)
			return err;
	} else {
		new_addr = get_unmapped_area(mm, new_addr, new_len, 0);
		if (IS_ERR_VALUE(new_addr))
			return (long)new_addr;
	}
	if (old_len > new_len) {
		err = do_munmap(mm, addr + new_len, old_len - new_len);
		if (err)
			return err;
		old_len = new_len;
	}
	vma = find_vma(mm, addr);
	return move_vma(mm, vma, addr, old_len, new_len, new_addr, flags, ufp);
}

/*
 * mremap(2) without a new address: shrink (unmap the tail), grow in
 * place if nothing is mapped above, else move (MREMAP_MAYMOVE) or
 * -ENOMEM. Returns the mapping's address or -errno.
 */
static long mremap_resize(struct mm_struct *mm, unsigned long addr,
			  unsigned long old_len, unsigned long new_len,
			  unsigned long flags, struct userfaultfd_ctx **ufp)
{
	struct vm_area_struct *vma;
	unsigned long new_addr;
	long err;

	if (old_len >= new_len) {
		if (old_len > new_len) {
			err = do_munmap(mm, addr + new_len, old_len - new_len);
			if (err)
				return err;
		}
		return addr;
	}
	vma = vma_to_resize(mm, addr, old_len, &err);
	if (!vma)
		return err;
	if (old_len == vma->vm_end - addr &&
	    vma_expandable(mm, vma, new_len - old_len))
		return mmap_region(mm, vma->vm_end, new_len - old_len,
				   vma->vm_flags, vma->vm_file,
				   vma->vm_pgoff + vma_pages(vma),
				   &vma->vm_policy) < 0 ?
		       -ENOMEM : (long)addr;
	if (!(flags & MREMAP_MAYMOVE))
		return -ENOMEM;
	new_addr = get_unmapped_area(mm, 0, new_len, 0);
	if (IS_ERR_VALUE(new_addr))
		return (long)new_addr;
	return move_vma(mm, vma, addr, old_len, new_len, new_addr, flags, ufp);
}

/* Linux's do_mremap: the checks that need no VMA, in its order, then
 * the move or resize under the mmap_lock (and the big kernel lock, as a
 * file mapping's mmap); a locked mapping that grew is populated after
 * (mm_populate takes the mmap_lock for reading). */
static long sys_mremap(unsigned long addr, unsigned long old_len,
		       unsigned long new_len, unsigned long flags,
		       unsigned long new_addr)
{
	struct mm_struct *mm = current->mm;
	struct userfaultfd_ctx *uf = NULL;
	struct vm_area_struct *vma;
	bool populate;
	long ret;

	if (flags & ~(MREMAP_FIXED | MREMAP_MAYMOVE | MREMAP_DONTUNMAP))
		return -EINVAL;
	if ((flags & MREMAP_FIXED) && !(flags & MREMAP_MAYMOVE))
		return -EINVAL;
	if ((flags & MREMAP_DONTUNMAP) &&
	    (!(flags & MREMAP_MAYMOVE) || old_len != new_len))
		return -EINVAL;
	if (addr & ~PAGE_MASK)
		return -EINVAL;
	old_len = PAGE_ALIGN(old_len);
	new_len = PAGE_ALIGN(new_len);
	if (!new_len)
		return -EINVAL;
	mmap_write_lock(mm);
	vma = find_vma(mm, addr);
	if (!vma || vma->vm_start > addr)
		ret = -EFAULT;
	else if (flags & (MREMAP_FIXED | MREMAP_DONTUNMAP))
		ret = mremap_to(mm, addr, old_len, new_addr, new_len, flags,
				&uf);
	else
		ret = mremap_resize(mm, addr, old_len, new_len, flags, &uf);
	populate = !IS_ERR_VALUE((unsigned long)ret) && new_len > old_len &&
		   (vma = find_vma(mm, (unsigned long)ret)) &&
		   (vma->vm_flags & VM_LOCKED);
	mmap_write_unlock(mm);
	/* A move's UFFD_EVENT_REMAP waits for the reader: not under the
	 * mmap_lock, which the reader's own faults take (Linux's order). */
	mremap_userfaultfd_complete(uf, addr, ret, min(old_len, new_len));
	if (populate)
		mm_populate(mm, (unsigned long)ret + old_len,
			    new_len - old_len);
	return ret;
}
SYSCALL(__NR_mremap, sys_mremap);
