/* mm/mprotect.c — mprotect(2) (Linux's mm/mprotect.c): the VMAs' new
 * flags (do_mprotect, mprotect_fixup) and their PTEs rewritten
 * (change_protection), also for userfaultfd's write protection. */
#include <asm/tlb.h>
#include <zpk/errno.h>
#include <zpk/huge_mm.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mman.h>
#include <zpk/sched.h>
#include <zpk/syscalls.h>
#include <zpk/userfaultfd_k.h>
#include "internal.h"

/* change_protection's walk: the new protection bits, whether the VMA
 * tracks soft-dirty, what it does to the uffd-wp bits (MM_CP_*), and the
 * range of the PTEs it changed, flushed once at the end. */
struct change_prot {
	u64 prot;
	bool soft_dirty;
	unsigned int cp_flags;
	unsigned long start, end;
};

/* The PTE for the new protection (cp->prot), keeping pfn and state
 * bits (a walk_page_range fn). Only an exclusive anonymous page may be
 * written in place (Linux's can_change_pte_writable): shared (COW) pages,
 * even ones fork's other side has let go, and the zero page stay
 * read-only, and their next write is a do_wp_page. So does a page not
 * soft-dirty in a VMA that tracks it (its next write must fault), and a
 * PTE a userfaultfd write-protects, whose next write is its reader's.
 * Clearing the uffd-wp bits drops the markers too. */
static int change_pte_prot(pte_t *pte, unsigned long addr, void *priv)
{
	const u64 keep = PTE_PFN_MASK | _PAGE_ACCESSED | _PAGE_DIRTY |
			 _PAGE_SPECIAL | _PAGE_SOFT_DIRTY | _PAGE_UFFD_WP;
	struct change_prot *cp = priv;
	struct page *page;
	pte_t old, entry;

	if (pte_marker_uffd_wp(*pte) &&
	    (cp->cp_flags & MM_CP_UFFD_WP_RESOLVE))
		pte_clear(pte);		/* not present: nothing to flush */
	if (!pte_present(*pte))
		return 0;
	old = ptep_modify_prot_start(pte);
	page = vm_normal_page(NULL, addr, old);
	entry = __pte((pte_val(old) & keep) | cp->prot);
	if (cp->cp_flags & MM_CP_UFFD_WP)
		entry = pte_mkuffd_wp(entry);
	else if (cp->cp_flags & MM_CP_UFFD_WP_RESOLVE)
		entry = pte_clear_uffd_wp(entry);
	/* LAB(cow-whole) BEGIN task 3: writable only if this mm's alone */
	if (!page || !PageAnonExclusive(page) || pte_uffd_wp(entry) ||
	    (cp->soft_dirty && !pte_soft_dirty(entry)))
		entry = pte_wrprotect(entry);
	/* LAB(cow-whole) END: (void)page; entry = pte_wrprotect(entry); */
	ptep_modify_prot_commit(pte, entry);
	if (pte_val(entry) != pte_val(old))
		changed_range_add(&cp->start, &cp->end, addr);
	return 0;
}

/*
 * A huge PMD in change_protection's walk (Linux's change_huge_pmd): one
 * the range covers whole gets the new protection at once, by the same
 * rule as a PTE (writable only if the THP is this mm's alone and, where
 * the VMA tracks it, soft-dirty; the huge zero page never). The rest is
 * split and changed at 4 KiB: a PMD the range covers in part, PROT_NONE
 * (not present, a PMD zpk would take for none) and userfaultfd's
 * protection (whose ranges zpk keeps at 4 KiB). Takes the PMD's lock;
 * mmap_lock held. 0, or WALK_PTES.
 */
static int change_huge_pmd(struct mm_struct *mm, pmd_t *pmd,
			   unsigned long addr, unsigned long end,
			   pte_walk_fn fn, void *priv)
{
	const u64 keep = PTE_PFN_MASK | _PAGE_ACCESSED | _PAGE_DIRTY |
			 _PAGE_SOFT_DIRTY | _PAGE_PSE | _PAGE_SPECIAL;
	struct change_prot *cp = priv;
	spinlock_t *ptl = pmd_lockptr(pmd);
	struct page *head = NULL;
	u64 old, entry;

	if ((addr & ~HPAGE_PMD_MASK) || end - addr != HPAGE_PMD_SIZE ||
	    !(cp->prot & _PAGE_PRESENT) || cp->cp_flags)
		return split_huge_pmd_walk(mm, pmd, addr, end, fn, priv);
	spin_lock(ptl);
	if (!pmd_leaf(*pmd)) {
		spin_unlock(ptl);
		return WALK_PTES;
	}
	if (!is_huge_zero_pmd(*pmd))
		head = pfn_to_page(pte_pfn(__pte(pmd_val(*pmd))));
	entry = (pmd_val(*pmd) & keep) | cp->prot;
	if (!head || !PageAnonExclusive(head) ||
	    (cp->soft_dirty && !(entry & _PAGE_SOFT_DIRTY)))
		entry &= ~_PAGE_RW;
	old = __atomic_exchange_n(&pmd->pmd, entry, __ATOMIC_SEQ_CST);
	spin_unlock(ptl);
	if (old != entry) {
		if (!cp->end)
			cp->start = addr;
		cp->end = addr + HPAGE_PMD_SIZE;
	}
	return 0;
}

/* Rewrites the present PTEs of [start, end) for newflags, then flushes
 * the ones it changed with one flush_tlb_mm_range (Linux's
 * change_protection_range: flush_tlb_range if any page changed). Called
 * by mprotect (mmap_lock for writing) and UFFDIO_WRITEPROTECT (for
 * reading), held on return; PTE locks taken and dropped. */
void change_protection(struct mm_struct *mm, unsigned long start,
		       unsigned long end, unsigned long newflags,
		       unsigned int cp_flags)
{
	struct change_prot cp = {
		.prot = pgprot_val(vm_get_page_prot(newflags)),
		.soft_dirty = !(newflags & VM_SOFTDIRTY),
		.cp_flags = cp_flags,
	};

	walk_page_range_pmd(mm, start, end, change_pte_prot, change_huge_pmd,
			    &cp);
	if (cp.end)
		flush_tlb_mm_range(mm, cp.start, cp.end);
}

static int mprotect_fixup(struct mm_struct *mm, struct vm_area_struct *vma,
			  unsigned long start, unsigned long end,
			  unsigned long newflags)
{
	return vma_modify(mm, vma, start, end, newflags, vma->vm_policy,
			  vma->vm_userfaultfd_ctx);
}

int do_mprotect(struct mm_struct *mm, unsigned long start, unsigned long len,
		unsigned long prot)
{
	unsigned long end, nstart, tmp, newflags;
	struct vm_area_struct *vma;
	int err;

	if (start & ~PAGE_MASK)
		return -EINVAL;
	if (!len)
		return 0;
	len = PAGE_ALIGN(len);
	end = start + len;
	if (end <= start)
		return -ENOMEM;
	if (prot & ~(unsigned long)(PROT_READ | PROT_WRITE | PROT_EXEC))
		return -EINVAL;

	/* Check it all first, so that a hole or EACCES changes nothing. */
	vma = find_vma(mm, start);
	if (!vma || vma->vm_start > start)
		return -ENOMEM;
	for (nstart = start; ; vma = vma_next(mm, vma)) {
		if (!vma || vma->vm_start > nstart)
			return -ENOMEM;
		newflags = calc_vm_prot_bits(prot);
		/* VM_MAYx is VM_x << 4: each right asked must be allowed. */
		if (newflags & ~(vma->vm_flags >> 4))
			return -EACCES;
		nstart = vma->vm_end;
		if (nstart >= end)
			break;
	}

	for (nstart = start; nstart < end; nstart = tmp) {
		vma = find_vma(mm, nstart);
		tmp = min(vma->vm_end, end);
		newflags = (vma->vm_flags & ~(VM_READ | VM_WRITE | VM_EXEC)) |
			   calc_vm_prot_bits(prot);
		err = mprotect_fixup(mm, vma, nstart, tmp, newflags);
		if (err)
			return err;
	}
	return 0;
}

static long sys_mprotect(unsigned long addr, size_t len, unsigned long prot)
{
	struct mm_struct *mm = current->mm;
	long ret;

	mmap_write_lock(mm);
	ret = do_mprotect(mm, addr, len, prot);
	mmap_write_unlock(mm);
	return ret;
}
SYSCALL_NOBKL(__NR_mprotect, sys_mprotect);
