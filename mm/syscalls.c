/* mm/syscalls.c — mmap, munmap, brk and msync on current->mm: thin
 * wrappers over mm/mmap.c (mprotect, madvise and mlock have their own
 * files, mm/mprotect.c, mm/madvise.c, mm/mlock.c). They run without
 * the big kernel lock (SYSCALL_NOBKL): each takes current->mm's mmap_lock,
 * for writing where it changes the VMAs; only a file's part takes the big
 * kernel lock, for the VFS. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/gup.h>
#include <zpk/mm.h>
#include <zpk/mman.h>
#include <zpk/sched.h>
#include <zpk/smp_lock.h>
#include <zpk/syscalls.h>
#include "internal.h"

long vm_mmap(struct mm_struct *mm, unsigned long addr, unsigned long len,
	     unsigned long prot, unsigned long flags, struct file *file,
	     unsigned long pgoff)
{
	long ret;

	mmap_write_lock(mm);
	ret = do_mmap(mm, addr, len, prot, flags, file, pgoff);
	mmap_write_unlock(mm);
	if (!IS_ERR_VALUE((unsigned long)ret) && mmap_populates(mm, flags))
		mm_populate(mm, (unsigned long)ret, PAGE_ALIGN(len));
	return ret;
}

/* A shared or file mapping goes through the VFS (a shmem file, the
 * file's page cache, i_writecount, the file's f_op->mmap, which do_mmap
 * calls): it holds the big kernel lock. */
static long sys_mmap(unsigned long addr, unsigned long len,
		     unsigned long prot, unsigned long flags, int fd,
		     unsigned long off)
{
	struct mm_struct *mm = current->mm;
	bool vfs = !(flags & MAP_ANONYMOUS) || (flags & MAP_SHARED);
	struct file *file = NULL;
	long ret = 0;

	if (off & ~PAGE_MASK)
		return -EINVAL;
	if (vfs)
		lock_kernel();
	if (!(flags & MAP_ANONYMOUS) && !(file = fget(fd)))
		ret = -EBADF;
	if (!ret) {
		mmap_write_lock(mm);
		ret = do_mmap(mm, addr, len, prot, flags, file,
			      off >> PAGE_SHIFT);
		mmap_write_unlock(mm);
	}
	if (file)
		fput(file);		/* the VMA holds its own reference */
	if (vfs)
		unlock_kernel();
	/* Linux ignores populate failures here: the mapping stands. */
	if (!IS_ERR_VALUE((unsigned long)ret) && mmap_populates(mm, flags))
		mm_populate(mm, (unsigned long)ret, PAGE_ALIGN(len));
	return ret;
}
SYSCALL_NOBKL(__NR_mmap, sys_mmap);

static long sys_munmap(unsigned long addr, size_t len)
{
	struct mm_struct *mm = current->mm;
	long ret;

	mmap_write_lock(mm);
	ret = do_munmap(mm, addr, len);
	mmap_write_unlock(mm);
	return ret;
}
SYSCALL_NOBKL(__NR_munmap, sys_munmap);

static long sys_brk(unsigned long brk)
{
	struct mm_struct *mm = current->mm;
	unsigned long old, ret;

	mmap_write_lock(mm);
	old = PAGE_ALIGN(mm->brk);
	ret = do_brk(mm, brk);
	mmap_write_unlock(mm);
	/* A locked heap (mlockall MCL_FUTURE) is populated, as Linux. */
	if (mmap_populates(mm, 0) && PAGE_ALIGN(ret) > old)
		mm_populate(mm, old, PAGE_ALIGN(ret) - old);
	return (long)ret;
}
SYSCALL_NOBKL(__NR_brk, sys_brk);

/* Private file pages are always in sync with themselves: accepted. */
static long sys_msync(unsigned long start, size_t len, int flags)
{
	(void)len;
	if ((start & ~PAGE_MASK) || (flags & ~7) || ((flags & 1) && (flags & 4)))
		return -EINVAL;
	return 0;
}
SYSCALL(__NR_msync, sys_msync);
