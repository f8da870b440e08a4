/* mm/gup.c — get_user_pages and follow_page: the one way kernel code reaches
 * user pages by page (populate, /proc/PID/mem, process_vm_readv/writev). */
#include <zpk/errno.h>
#include <zpk/huge_mm.h>
#include <zpk/gup.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mman.h>
#include <zpk/oom.h>
#include <zpk/sched.h>
#include <zpk/string.h>
#include <zpk/vmstat.h>
#include <zpk/zero_page.h>
#include "internal.h"

/*
 * A FOLL_FORCE write may use a read-only PTE once the fault has made the
 * page an exclusive anonymous one (Linux's can_follow_write_pte): the
 * write then lands in our copy, never in the zero page, a file's page or
 * one a fork child shares. Where the VMA tracks soft-dirty, the PTE must
 * be soft-dirty too, or the write would go unseen. Called by follow_pte
 * under the PTE's lock (and mm's mmap_lock).
 */
static bool can_follow_write_pte(pte_t pte, struct page *page,
				 struct vm_area_struct *vma, unsigned int flags)
{
	if (pte_write(pte))
		return true;
	if (vma_soft_dirty_enabled(vma) && !pte_soft_dirty(pte))
		return false;
	/* LAB(cow-whole) BEGIN task 3: a FOLL_FORCE write into our own copy */
	return (flags & FOLL_FORCE) && page && PageAnonExclusive(page) &&
	       pte_dirty(pte);
	/* LAB(cow-whole) END:
	 * return (flags & FOLL_FORCE) && page && PageAnon(page) &&
	 *	  pte_dirty(pte);
	 */
}

/* follow_page's decision for one PTE: called with the PTE's lock and
 * mm's mmap_lock (for reading) held, both still held on return, so a
 * FOLL_GET reference is taken before the page can be unmapped. Returns
 * the page, or NULL if a fault must come first. */
static struct page *follow_pte(struct vm_area_struct *vma,
			       unsigned long address, pte_t pte,
			       unsigned int flags)
{
	struct page *page;

	if (!pte_present(pte))
		return NULL;
	/* LAB(zero-page-whole) BEGIN task 3: get_user_pages of a zero PTE */
	if (is_zero_pfn(pte_pfn(pte))) {
		if (flags & (FOLL_WRITE | FOLL_NOZERO))
			return NULL;
		page = ZERO_PAGE(address);
		if (flags & FOLL_GET) {
			get_page(page);
			count_vm_event(ZERO_PAGE_REFCOUNT_OPS);
		}
		return page;
	}
	/* LAB(zero-page-whole) END */
	page = vm_normal_page(vma, address, pte);
	if (!page)
		return NULL;
	if ((flags & FOLL_WRITE) &&
	    !can_follow_write_pte(pte, page, vma, flags))
		return NULL;
	if (flags & FOLL_GET)
		get_page(page);
	return page;
}

/*
 * follow_page of a huge PMD (Linux's follow_trans_huge_pmd): the 4 KiB
 * at address, decided as for a PTE that maps it (follow_pte), so a
 * read of the huge zero page gives the small zero page (both zeros) and
 * FOLL_DUMP its hole. What a PTE could do and a PMD cannot, the PMD is
 * split for, and the PTE level answers: a FOLL_FORCE write through a
 * read-only PMD (the COW and the write at 4 KiB), FOLL_NOZERO on the
 * huge zero page. Takes and drops the PMD's lock; mmap_lock held. true
 * with the answer in *pagep, or false: follow the PTE.
 */
static bool follow_trans_huge_pmd(struct vm_area_struct *vma,
				  unsigned long address, pmd_t *pmd,
				  unsigned int flags, struct page **pagep)
{
	spinlock_t *ptl = pmd_lockptr(pmd);
	bool zero;

	spin_lock(ptl);
	if (!pmd_leaf(*pmd)) {
		spin_unlock(ptl);
		return false;
	}
	zero = is_huge_zero_pmd(*pmd);
	if ((zero && (flags & FOLL_NOZERO)) ||
	    ((flags & (FOLL_WRITE | FOLL_FORCE)) == (FOLL_WRITE | FOLL_FORCE) &&
	     !(pmd_val(*pmd) & _PAGE_RW))) {
		__split_huge_pmd_locked(vma->vm_mm, pmd,
					address & HPAGE_PMD_MASK);
		spin_unlock(ptl);
		return false;
	}
	*pagep = follow_pte(vma, address,
			    __pte(pte_val(huge_pmd_pte(*pmd, address)) &
				  ~_PAGE_PSE), flags);
	spin_unlock(ptl);
	return true;
}

/*
 * The page mapped at address, or NULL when a fault must come first (not
 * present, not writable for FOLL_WRITE, a zero page under FOLL_NOZERO).
 * The zero page comes back for reads; FOLL_GET takes a reference on it
 * whatever its PTE, special or not, as 2.6.32's follow_page did (with
 * several CPUs faulting, the count alone cannot tell put_user_page
 * afterwards whether one was taken). The PTE's lock is held while the
 * reference is taken, so the page cannot be unmapped and freed between.
 * Called by get_one_page with mm's mmap_lock held for reading, held on
 * return; the PTE's lock is taken and dropped here.
 */
struct page *follow_page(struct vm_area_struct *vma, unsigned long address,
			 unsigned int flags)
{
	pmd_t *pmd = pmd_lookup(vma->vm_mm, address);
	spinlock_t *ptl;
	pte_t *ptep;
	struct page *page;

	if (pmd && pmd_leaf(READ_ONCE(*pmd)) &&
	    follow_trans_huge_pmd(vma, address, pmd, flags, &page))
		return page;
	ptep = pte_lookup_lock(vma->vm_mm, address, &ptl);
	if (!ptep)
		return NULL;
	page = follow_pte(vma, address, *ptep, flags);
	pte_unmap_unlock(ptep, ptl);
	return page;
}

/* Releases a page from get_user_pages. The zero page's own reference
 * keeps it from ever reaching the allocator: its count just drops. No
 * lock needed (atomic counts); callers drop their references before the
 * mmap_lock (mm_verify counts them). */
void put_user_page(struct page *page)
{
	if (PageZero(page)) {
		page_ref_add(page, -1);
		count_vm_event(ZERO_PAGE_REFCOUNT_OPS);
		return;
	}
	put_page(page);
}

/* The FOLL_* of a get_user_pages as handle_mm_fault's FAULT_FLAG_*:
 * always FAULT_FLAG_REMOTE (not the CPU's access). No lock. */
static unsigned int fault_flags_of(unsigned int flags)
{
	unsigned int ff = FAULT_FLAG_REMOTE;

	if (flags & FOLL_WRITE)
		ff |= FAULT_FLAG_WRITE;
	if (flags & FOLL_FORCE)
		ff |= FAULT_FLAG_FORCE;
	if (flags & FOLL_NOZERO)
		ff |= FAULT_FLAG_NOZERO;
	return ff;
}

/*
 * Memory ran out in a fault for get_user_pages: the OOM killer runs with
 * mm's mmap_lock given up, as a user fault's does, since the victim it
 * waits for may need that lock to exit (mm_verify=exit takes every mm's).
 * -EAGAIN: fault again from the VMA, which may be gone; -ENOMEM: nothing
 * to kill, or current is the one dying. Called by get_one_page with the
 * mmap_lock held for reading, and returns with it held again.
 */
static int gup_out_of_memory(struct mm_struct *mm)
{
	enum oom_result r;

	mmap_read_unlock(mm);
	r = out_of_memory();
	mmap_read_lock(mm);
	return r == OOM_RETRY ? -EAGAIN : -ENOMEM;
}

/* One page: follow, and fault until it can be followed (Linux's loop in
 * __get_user_pages); an error is the fault's, as an errno. -EAGAIN: the
 * mmap_lock was given up meanwhile (a userfaultfd's reader resolved the
 * fault while we slept, or the OOM killer ran): vma may be gone, look it
 * up again; -EINTR: a fatal signal came first (Linux's gup: any other
 * waits until the call is done, see handle_userfault). Called by
 * get_user_pages with mm's mmap_lock held for reading, held on return
 * (given up and retaken meanwhile after -EAGAIN); no other lock. */
static int get_one_page(struct vm_area_struct *vma, unsigned long addr,
			unsigned int flags, struct page **page)
{
	for (int tries = 0; tries < 4; tries++) {
		vm_fault_t ret;

		*page = follow_page(vma, addr, flags);
		if (*page)
			return 0;
		if (flags & FOLL_NOZERO)
			flush_zero_pte(vma, addr);
		ret = handle_mm_fault(vma, addr, fault_flags_of(flags));
		if (ret & VM_FAULT_RETRY)
			return fatal_signal_pending(current) ? -EINTR :
							       -EAGAIN;
		if (ret & VM_FAULT_OOM)
			return gup_out_of_memory(vma->vm_mm);
		if (ret & ~VM_FAULT_MAJOR)
			return -EFAULT;
		if (current && current->mm == vma->vm_mm && ret)
			current->maj_flt++;
		else if (current && current->mm == vma->vm_mm)
			current->min_flt++;
	}
	BUGF("get_user_pages: %#lx still not followable after faults", addr);
}

/* zpk/gup.h. Called with mm's mmap_lock held for reading, held on return
 * (a userfault or the OOM killer may give it up meanwhile: the VMA is
 * looked up again), and no spinlock: a fault may sleep. Called by
 * populate_vma_page_range, access_remote_vm, vmsplice, madvise, read's
 * writeable check and get_mempolicy. */
long get_user_pages(struct mm_struct *mm, unsigned long start,
		    unsigned long nr, unsigned int flags, struct page **pages)
{
	unsigned long i = 0;

	if (pages)
		flags |= FOLL_GET;
	start &= PAGE_MASK;
	while (i < nr) {
		struct vm_area_struct *vma = find_vma(mm, start);
		struct page *page;
		int err;

		if (!vma || vma->vm_start > start)
			err = -EFAULT;
		else
			err = access_error(vma, fault_flags_of(flags)) ?
			      -EFAULT : 0;
		if (!err)
			err = get_one_page(vma, start, flags, &page);
		if (err == -EAGAIN)
			continue;	/* this page again, from the VMA */
		if (err)
			return i ? (long)i : err;
		if (pages)
			pages[i] = page;
		i++;
		start += PAGE_SIZE;
	}
	return (long)i;
}

/*
 * The page a core dump writes at addr, with a reference (Linux's
 * get_dump_page and FOLL_DUMP): NULL for a hole the dump leaves, which
 * is the zero page, an untouched page of anonymous memory (not faulted
 * in: a huge sparse mapping dumps small), or a page that cannot be had.
 * An untouched page of a file is read in, as the file holds data there.
 * Called by the dump with current's mmap_lock held for reading, held on
 * return (a userfault may give it up meanwhile); no spinlock.
 */
struct page *get_dump_page(unsigned long addr)
{
	struct vm_area_struct *vma = find_vma(current->mm, addr);
	struct page *page;

	if (!vma || vma->vm_start > addr)
		return NULL;
	/* A look first, without a reference or a fault; no fault for a
	 * userfaultfd's reader either: it may be a dying thread. */
	page = follow_page(vma, addr, 0);
	if (page ? PageZero(page) :
		   !vma->vm_file || (vma->vm_flags & __VM_UFFD_FLAGS))
		return NULL;
	if (get_user_pages(current->mm, addr, 1, FOLL_FORCE, &page) != 1)
		return NULL;
	if (PageZero(page)) {
		put_user_page(page);
		return NULL;
	}
	return page;
}

/* Faults in [start, end) of vma as mlock and MAP_POPULATE do: for write
 * in a private writable mapping (real pages), else for read. Called by
 * mm_populate with mm's mmap_lock held for reading (get_user_pages'
 * contract). 0, -ENOMEM if short, or get_user_pages' errno. */
int populate_vma_page_range(struct vm_area_struct *vma, unsigned long start,
			    unsigned long end)
{
	unsigned int flags = 0;
	long n = (long)((end - start) >> PAGE_SHIFT), got;

	if (!(vma->vm_flags & (VM_READ | VM_WRITE | VM_EXEC)))
		return 0;		/* PROT_NONE: nothing to populate */
	if (vma->vm_flags & VM_LOCKONFAULT)
		return 0;		/* locked as it faults, not before */
	if ((vma->vm_flags & (VM_WRITE | VM_SHARED)) == VM_WRITE)
		flags |= FOLL_WRITE;
	flags |= FOLL_FORCE;
	got = get_user_pages(vma->vm_mm, start, n, flags, NULL);
	return got < 0 ? (int)got : got < n ? -ENOMEM : 0;
}

/*
 * Does a new mapping get its pages at once (mm_populate), rather than each
 * at its first touch? Only if asked: MAP_POPULATE, MAP_LOCKED, or
 * mlockall(MCL_FUTURE) (mm->def_flags), as Linux's do_mmap decides.
 * Called by mmap, mremap and brk after they let the mmap_lock go: it
 * reads one word of mm (def_flags), which only mlockall changes.
 */
bool mmap_populates(struct mm_struct *mm, unsigned long flags)
{
	/* LAB(demand-paging) BEGIN task 4: a page waits for its first touch */
	return (flags & (MAP_POPULATE | MAP_LOCKED)) ||
	       (mm->def_flags & VM_LOCKED);
	/* LAB(demand-paging) END: (void)mm; (void)flags; return true; */
}

/* Takes mm's mmap_lock for reading itself (Linux's __mm_populate): the
 * caller holds none (mmap and mlock call it after dropping theirs). vma
 * may be gone after each populate_vma_page_range (a userfault sleeps, the
 * lock dropped): the walk goes on from the address. 0 or an errno. */
int mm_populate(struct mm_struct *mm, unsigned long start, unsigned long len)
{
	unsigned long end = start + len, s, e;
	struct vm_area_struct *vma;
	int err = 0;

	mmap_read_lock(mm);
	for (s = start; !err && s < end && (vma = find_vma(mm, s)) &&
	     vma->vm_start < end; s = e) {
		s = s > vma->vm_start ? s : vma->vm_start;
		e = end < vma->vm_end ? end : vma->vm_end;
		err = populate_vma_page_range(vma, s, e);
	}
	mmap_read_unlock(mm);
	return err;
}

/*
 * Copies between a kernel buffer and mm's memory at addr, a page at a
 * time through get_user_pages (Linux's access_remote_vm): writes use
 * FOLL_WRITE, so zero pages and COW-shared pages get private copies
 * first. Returns the bytes copied (short at the first failing page).
 * Takes mm's mmap_lock for reading itself: the caller (/proc/PID/mem,
 * process_vm_*) holds no mmap_lock, nor a spinlock.
 */
long access_remote_vm(struct mm_struct *mm, unsigned long addr, void *buf,
		      size_t len, unsigned int flags)
{
	size_t done = 0;

	mmap_read_lock(mm);
	while (done < len) {
		size_t off = addr & ~PAGE_MASK;
		size_t n = min(len - done, (size_t)(PAGE_SIZE - off));
		struct page *page;
		char *kaddr;

		if (get_user_pages(mm, addr, 1, flags, &page) != 1)
			break;
		kaddr = (char *)page_address(page) + off;
		if (flags & FOLL_WRITE) {
			BUG_ON(PageZero(page));
			memcpy(kaddr, (char *)buf + done, n);
		} else {
			memcpy((char *)buf + done, kaddr, n);
		}
		put_user_page(page);
		done += n;
		addr += n;
	}
	mmap_read_unlock(mm);
	return (long)done;
}
