/* mm/madvise.c — madvise(2) (Linux's mm/madvise.c): populate, the fork
 * flags, DONTNEED/FREE and REMOVE, with userfaultfd's remove events,
 * (NO)HUGEPAGE's VMA flags, COLD/PAGEOUT and COLLAPSE; the other hints
 * are accepted and do nothing. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/gup.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mman.h>
#include <zpk/sched.h>
#include <zpk/smp_lock.h>
#include <zpk/syscalls.h>
#include <zpk/userfaultfd_k.h>
#include "internal.h"

/*
 * MADV_POPULATE_READ/WRITE: fault the range in as a read or write would,
 * without the access (so reads map zero pages, writes real pages). As
 * Linux: -EINVAL where the access is not allowed, -EFAULT if a fault
 * would signal, -ENOMEM if memory ran out.
 */
static long madvise_populate(struct mm_struct *mm, unsigned long start,
			     unsigned long end, bool write)
{
	struct vm_area_struct *vma;
	long n, got;

	for (vma = find_vma(mm, start); vma && vma->vm_start < end;
	     vma = find_vma(mm, vma->vm_end))
		if (!(vma->vm_flags & (write ? VM_WRITE : VM_READ)))
			return -EINVAL;
	n = (long)((end - start) >> PAGE_SHIFT);
	got = get_user_pages(mm, start, n, write ? FOLL_WRITE : 0, NULL);
	if (got == n)
		return 0;
	return got == -ENOMEM ? -ENOMEM : -EFAULT;
}

/*
 * MADV_DONTFORK/DOFORK and MADV_WIPEONFORK/KEEPONFORK: a vm_flags bit
 * that dup_mmap reads. WIPEONFORK is for private anonymous memory only
 * (-EINVAL otherwise, as Linux; here checked for the whole range before
 * any VMA changes, where Linux may have changed the VMAs before).
 */
static long madvise_fork_flags(struct mm_struct *mm, unsigned long start,
			       unsigned long end, int advice)
{
	struct vm_area_struct *vma;

	if (advice == MADV_WIPEONFORK)
		for (vma = find_vma(mm, start); vma && vma->vm_start < end;
		     vma = find_vma(mm, vma->vm_end))
			if (vma->vm_file || (vma->vm_flags & VM_SHARED))
				return -EINVAL;
	switch (advice) {
	case MADV_DONTFORK:
		return vma_modify_flags(mm, start, end - start, VM_DONTCOPY, 0);
	case MADV_DOFORK:
		return vma_modify_flags(mm, start, end - start, 0, VM_DONTCOPY);
	case MADV_WIPEONFORK:
		return vma_modify_flags(mm, start, end - start,
					VM_WIPEONFORK, 0);
	}
	return vma_modify_flags(mm, start, end - start, 0, VM_WIPEONFORK);
}

/*
 * The VMA at start after a userfaultfd's reader read its UFFD_EVENT_REMOVE
 * (we slept: it may have changed): NULL with *err -ENOMEM if start is
 * unmapped now, -EINVAL if locked (Linux's checks in
 * madvise_dontneed_free).
 */
static struct vm_area_struct *madvise_vma_again(struct mm_struct *mm,
						unsigned long start, long *err)
{
	struct vm_area_struct *vma = find_vma(mm, start);

	*err = -ENOMEM;
	if (!vma || vma->vm_start > start)
		return NULL;
	*err = -EINVAL;
	return vma->vm_flags & VM_LOCKED ? NULL : vma;
}

/*
 * MADV_DONTNEED, MADV_FREE: zaps [start, end) of vma; a registered VMA's
 * uffd hears of it first (UFFD_EVENT_REMOVE). -EINVAL if locked.
 */
static long madvise_dontneed(struct mm_struct *mm, struct vm_area_struct *vma,
			     unsigned long start, unsigned long end)
{
	long err;

	if (vma->vm_flags & VM_LOCKED)
		return -EINVAL;
	if (!userfaultfd_remove(vma, start, end) &&
	    !(vma = madvise_vma_again(mm, start, &err)))
		return err;
	zap_page_range(vma, start, min(end, vma->vm_end));
	return 0;
}

/*
 * MADV_REMOVE: punches the hole [start, end) of vma in the file of a
 * shared writable mapping, as Linux's madvise_remove: -EINVAL (locked,
 * anonymous), -EACCES (not shared and writable). The uffd hears of it
 * first (UFFD_EVENT_REMOVE). The punch unmaps the hole from every
 * mapping, this one too, taking each mm's mmap_lock: held for reading on
 * entry and on return, it is let go meanwhile, as Linux's (and by
 * userfaultfd_remove while it waits).
 */
static long madvise_remove(struct mm_struct *mm, struct vm_area_struct *vma,
			   unsigned long start, unsigned long end)
{
	struct file *f = vma->vm_file;
	loff_t offset;
	long err;

	if ((vma->vm_flags & VM_LOCKED) || !f)
		return -EINVAL;
	if ((vma->vm_flags & (VM_SHARED | VM_WRITE)) != (VM_SHARED | VM_WRITE))
		return -EACCES;
	offset = (loff_t)(start - vma->vm_start) +
		 ((loff_t)vma->vm_pgoff << PAGE_SHIFT);
	get_file(f);	/* the VMA may go while the lock is let go */
	userfaultfd_remove(vma, start, end);
	mmap_read_unlock(mm);
	lock_kernel();	/* the VFS's: madvise runs without it */
	err = vfs_fallocate(f, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			    offset, end - start);
	unlock_kernel();
	fput(f);
	mmap_read_lock(mm);
	return err;
}

/*
 * MADV_COLD, MADV_PAGEOUT (Linux's madvise_cold and madvise_pageout): the
 * private anonymous pages of [start, end) in vma that this mm alone maps
 * lose their accessed bit (cold) or go to swap now (pageout: without a
 * swap area, or with it full, they stay). -EINVAL if vma is mlocked.
 * mmap_lock held for reading; pageout sleeps on the writes.
 */
static long madvise_cold_pageout(struct vm_area_struct *vma,
				 unsigned long start, unsigned long end,
				 int advice)
{
	if (vma->vm_flags & VM_LOCKED)
		return -EINVAL;
	madvise_pageout_range(vma, start, end, advice == MADV_PAGEOUT);
	return 0;
}

/* The advice that acts on each VMA of [start, end) in turn (Linux's
 * madvise_walk_vmas): MADV_DONTNEED, MADV_FREE, MADV_REMOVE, MADV_COLD,
 * MADV_PAGEOUT, MADV_COLLAPSE (mm/khugepaged.c). */
static long madvise_walk_vmas(struct mm_struct *mm, unsigned long start,
			      unsigned long end, int advice)
{
	struct vm_area_struct *vma;
	unsigned long e;
	long err;

	for (; start < end && (vma = find_vma(mm, start)) &&
	       vma->vm_start < end; start = e) {
		start = max(start, vma->vm_start);
		e = min(end, vma->vm_end);
		if (advice == MADV_COLD || advice == MADV_PAGEOUT)
			err = madvise_cold_pageout(vma, start, e, advice);
		else if (advice == MADV_COLLAPSE)
			err = madvise_collapse(vma, start, e);
		else if (advice == MADV_REMOVE)
			err = madvise_remove(mm, vma, start, e);
		else
			err = madvise_dontneed(mm, vma, start, e);
		if (err)
			return err;
	}
	return 0;
}

/* A valid advice on [start, end), mmap_lock held. */
static long madvise_vmas(struct mm_struct *mm, unsigned long start,
			 unsigned long end, int advice)
{
	if (!range_mapped(mm, start, end))
		return -ENOMEM;
	if (advice == MADV_POPULATE_READ || advice == MADV_POPULATE_WRITE)
		return madvise_populate(mm, start, end,
					advice == MADV_POPULATE_WRITE);
	if (advice == MADV_DONTFORK || advice == MADV_DOFORK ||
	    advice == MADV_WIPEONFORK || advice == MADV_KEEPONFORK)
		return madvise_fork_flags(mm, start, end, advice);
	/* Linux's hugepage_madvise: new faults only; small pages already
	 * mapped stay (khugepaged, which would collapse them, zpk has not:
	 * MADV_COLLAPSE does, when asked). */
	if (advice == MADV_HUGEPAGE)
		return vma_modify_flags(mm, start, end - start, VM_HUGEPAGE,
					VM_NOHUGEPAGE);
	if (advice == MADV_NOHUGEPAGE)
		return vma_modify_flags(mm, start, end - start, VM_NOHUGEPAGE,
					VM_HUGEPAGE);
	if (advice != MADV_DONTNEED && advice != MADV_FREE &&
	    advice != MADV_REMOVE && advice != MADV_COLD &&
	    advice != MADV_PAGEOUT && advice != MADV_COLLAPSE)
		return 0;
	return madvise_walk_vmas(mm, start, end, advice);
}

/* The advices that change VM flags take the mmap_lock for writing, and
 * MADV_COLLAPSE, which replaces page tables; the others (zapping,
 * populating, hints) for reading, as Linux's madvise_need_mmap_write:
 * faults on other CPUs go on meanwhile. */
static long madvise_locked(struct mm_struct *mm, unsigned long start,
			   unsigned long end, int advice)
{
	bool write = advice == MADV_DONTFORK || advice == MADV_DOFORK ||
		     advice == MADV_WIPEONFORK || advice == MADV_KEEPONFORK ||
		     advice == MADV_HUGEPAGE || advice == MADV_NOHUGEPAGE ||
		     advice == MADV_COLLAPSE;
	long ret;

	if (write)
		mmap_write_lock(mm);
	else
		mmap_read_lock(mm);
	ret = madvise_vmas(mm, start, end, advice);
	if (write)
		mmap_write_unlock(mm);
	else
		mmap_read_unlock(mm);
	return ret;
}

/* Linux's madvise checks; MADV_DONTNEED zaps, MADV_PAGEOUT swaps out,
 * MADV_COLLAPSE makes THPs, the other hints do nothing. */
static long sys_madvise(unsigned long start, size_t len, int advice)
{
	struct mm_struct *mm = current->mm;
	unsigned long end;

	if (start & ~PAGE_MASK)
		return -EINVAL;
	len = PAGE_ALIGN(len);
	end = start + len;
	if (end < start)
		return -EINVAL;
	switch (advice) {
	case MADV_NORMAL: case MADV_RANDOM: case MADV_SEQUENTIAL:
	case MADV_WILLNEED: case MADV_DONTNEED: case MADV_FREE:
	case MADV_POPULATE_READ: case MADV_POPULATE_WRITE:
	case MADV_DONTFORK: case MADV_DOFORK:
	case MADV_WIPEONFORK: case MADV_KEEPONFORK: case MADV_REMOVE:
	case MADV_HUGEPAGE: case MADV_NOHUGEPAGE:
	case MADV_COLD: case MADV_PAGEOUT: case MADV_COLLAPSE:
		break;
	default:
		return -EINVAL;
	}
	if (!len)
		return 0;
	return madvise_locked(mm, start, end, advice);
}
SYSCALL_NOBKL(__NR_madvise, sys_madvise);
