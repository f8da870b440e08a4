/* mm/syscalls.c — the memory system calls on current->mm: thin wrappers
 * over mm/mmap.c (VMAs) and mm/memory.c (page tables). */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/memory.h>
#include <zpk/mman.h>
#include <zpk/sched.h>
#include <zpk/syscalls.h>

static long sys_mmap(unsigned long addr, unsigned long len,
		     unsigned long prot, unsigned long flags, int fd,
		     unsigned long off)
{
	struct file *file = NULL;
	long ret;

	if (off & ~PAGE_MASK)
		return -EINVAL;
	if (!(flags & MAP_ANONYMOUS)) {
		file = fget(fd);
		if (!file)
			return -EBADF;
		/* /dev/zero maps anonymous memory, private or shared, as on
		 * Linux. */
		if (S_ISCHR(file->f_inode->i_mode) &&
		    file->f_inode->i_rdev == MKDEV(1, 5)) {
			fput(file);
			file = NULL;
			flags |= MAP_ANONYMOUS;
		} else if (file->f_op != &ramfs_file_ops) {
			fput(file);	/* pipes, /proc: no pages to map */
			return -ENODEV;
		} else if ((file->f_flags & O_ACCMODE) == O_WRONLY) {
			fput(file);
			return -EACCES;
		}
	}
	ret = do_mmap(current->mm, addr, len, prot, flags, file,
		      off >> PAGE_SHIFT);
	if (file)
		fput(file);		/* the VMA holds its own reference */
	return ret;
}
SYSCALL(__NR_mmap, sys_mmap);

static long sys_munmap(unsigned long addr, size_t len)
{
	return do_munmap(current->mm, addr, len);
}
SYSCALL(__NR_munmap, sys_munmap);

static long sys_mprotect(unsigned long addr, size_t len, unsigned long prot)
{
	return do_mprotect(current->mm, addr, len, prot);
}
SYSCALL(__NR_mprotect, sys_mprotect);

static long sys_brk(unsigned long brk)
{
	return (long)do_brk(current->mm, brk);
}
SYSCALL(__NR_brk, sys_brk);

/* The VMAs must cover [start, end) without holes, as madvise and mlock
 * require (-ENOMEM otherwise). */
static bool range_mapped(struct mm_struct *mm, unsigned long start,
			 unsigned long end)
{
	struct vm_area_struct *vma = find_vma(mm, start);

	while (start < end) {
		if (!vma || vma->vm_start > start)
			return false;
		start = vma->vm_end;
		vma = find_vma(mm, start);
	}
	return true;
}

/* Linux's madvise checks; MADV_DONTNEED zaps, the hints do nothing. */
static long sys_madvise(unsigned long start, size_t len, int advice)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
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
		break;
	default:
		return -EINVAL;
	}
	if (!len)
		return 0;
	if (!range_mapped(mm, start, end))
		return -ENOMEM;
	if (advice != MADV_DONTNEED && advice != MADV_FREE)
		return 0;
	for (vma = find_vma(mm, start); vma && vma->vm_start < end;
	     vma = find_vma(mm, vma->vm_end)) {
		if (vma->vm_flags & VM_LOCKED)
			return -EINVAL;
		zap_page_range(vma, start > vma->vm_start ? start : vma->vm_start,
			       end < vma->vm_end ? end : vma->vm_end);
	}
	return 0;
}
SYSCALL(__NR_madvise, sys_madvise);

/* mlock sets VM_LOCKED through mprotect's split-and-merge path keeping
 * the protection; populating the pages comes with the zero-page issue. */
static long mlock_fixup_range(unsigned long start, size_t len, bool lock)
{
	struct mm_struct *mm = current->mm;
	unsigned long end;

	len = PAGE_ALIGN(len + (start & ~PAGE_MASK));
	start &= PAGE_MASK;
	end = start + len;
	if (end < start)
		return -EINVAL;
	if (!range_mapped(mm, start, end))
		return -ENOMEM;
	return do_mlock(mm, start, len, lock);
}

static long sys_mlock(unsigned long start, size_t len)
{
	return mlock_fixup_range(start, len, true);
}
SYSCALL(__NR_mlock, sys_mlock);

static long sys_munlock(unsigned long start, size_t len)
{
	return mlock_fixup_range(start, len, false);
}
SYSCALL(__NR_munlock, sys_munlock);

/* Private file pages are always in sync with themselves: accepted. */
static long sys_msync(unsigned long start, size_t len, int flags)
{
	(void)len;
	if ((start & ~PAGE_MASK) || (flags & ~7) || ((flags & 1) && (flags & 4)))
		return -EINVAL;
	return 0;
}
SYSCALL(__NR_msync, sys_msync);
