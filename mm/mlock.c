/* mm/mlock.c — mlock(2), mlock2, munlock, mlockall and munlockall
 * (Linux's mm/mlock.c): VM_LOCKED, or VM_LOCKED | VM_LOCKONFAULT, set on
 * the VMAs by vma_modify_flags, then the range faulted in. */
#include <zpk/errno.h>
#include <zpk/gup.h>
#include <zpk/mm.h>
#include <zpk/mman.h>
#include <zpk/sched.h>
#include <zpk/syscalls.h>
#include "internal.h"

int do_mlock(struct mm_struct *mm, unsigned long start, unsigned long len,
	     unsigned long lock_flags)
{
	return vma_modify_flags(mm, start, len, lock_flags,
				VM_LOCKED_MASK & ~lock_flags);
}

/* mlock sets the lock flags through mprotect's split-and-merge path
 * keeping the protection, then faults the range in (not for
 * MLOCK_ONFAULT): for write in private writable VMAs (real pages, never
 * zero pages), as Linux. lock_flags 0 unlocks. */
static long mlock_fixup_range(unsigned long start, size_t len,
			      unsigned long lock_flags)
{
	struct mm_struct *mm = current->mm;
	unsigned long end;
	int err;

	len = PAGE_ALIGN(len + (start & ~PAGE_MASK));
	start &= PAGE_MASK;
	end = start + len;
	if (end < start)
		return -EINVAL;
	mmap_write_lock(mm);
	err = range_mapped(mm, start, end) ?
	      do_mlock(mm, start, len, lock_flags) : -ENOMEM;
	mmap_write_unlock(mm);
	if (err || !lock_flags)
		return err;
	return mm_populate(mm, start, len);
}

static long sys_mlock(unsigned long start, size_t len)
{
	return mlock_fixup_range(start, len, VM_LOCKED);
}
SYSCALL_NOBKL(__NR_mlock, sys_mlock);

/* MLOCK_ONFAULT: locked, but each page only as it faults in. */
static long sys_mlock2(unsigned long start, size_t len, int flags)
{
	if (flags & ~MLOCK_ONFAULT)
		return -EINVAL;
	return mlock_fixup_range(start, len, flags & MLOCK_ONFAULT ?
				 VM_LOCKED_MASK : VM_LOCKED);
}
SYSCALL_NOBKL(__NR_mlock2, sys_mlock2);

static long sys_munlock(unsigned long start, size_t len)
{
	return mlock_fixup_range(start, len, 0);
}
SYSCALL_NOBKL(__NR_munlock, sys_munlock);

/* Every VMA given lock_flags (0: unlocked), one at a time: they may
 * merge. */
static int mlock_all_vmas(struct mm_struct *mm, unsigned long lock_flags)
{
	struct vm_area_struct *vma;
	unsigned long addr = 0;
	int err;

	while ((vma = find_vma(mm, addr))) {
		addr = vma->vm_end;
		err = do_mlock(mm, vma->vm_start, vma->vm_end - vma->vm_start,
			       lock_flags);
		if (err)
			return err;
	}
	return 0;
}

static long sys_mlockall(int flags)
{
	struct mm_struct *mm = current->mm;
	unsigned long lock_flags = VM_LOCKED;
	int err;

	if (!flags || (flags & ~(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT)) ||
	    flags == MCL_ONFAULT)
		return -EINVAL;
	if (flags & MCL_ONFAULT)
		lock_flags |= VM_LOCKONFAULT;
	mmap_write_lock(mm);
	mm->def_flags &= ~VM_LOCKED_MASK;
	if (flags & MCL_FUTURE)
		mm->def_flags |= lock_flags;
	err = flags & MCL_CURRENT ? mlock_all_vmas(mm, lock_flags) : 0;
	mmap_write_unlock(mm);
	if (err || !(flags & MCL_CURRENT))
		return err;
	return mm_populate(mm, 0, TASK_SIZE);	/* skips VM_LOCKONFAULT */
}
SYSCALL_NOBKL(__NR_mlockall, sys_mlockall);

static long sys_munlockall(void)
{
	struct mm_struct *mm = current->mm;
	int err;

	mmap_write_lock(mm);
	mm->def_flags &= ~VM_LOCKED_MASK;
	err = mlock_all_vmas(mm, 0);
	mmap_write_unlock(mm);
	return err;
}
SYSCALL_NOBKL(__NR_munlockall, sys_munlockall);
