/* fs/zero.c — read(2) of /dev/zero straight into user memory:
 * clear_user, or under zero_page=refcount 2.6.23's zero-page mapping trick. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mman.h>
#include <zpk/sched.h>
#include <zpk/uaccess.h>
#include <zpk/zero_page.h>

/*
 * 2.6.23's read_zero_pagealigned, which 557ed1fa2620 removed: whole pages
 * of private writable anonymous memory get the zero page mapped (under
 * zero_page=refcount) instead of being cleared. Returns where it stopped.
 */
static unsigned long read_zero_pagealigned(unsigned long addr,
					   unsigned long end)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;

	mmap_read_lock(mm);	/* as a fault: the VMAs stay, PTEs by ptl */
	while (addr < end) {
		unsigned long stop;

		vma = find_vma(mm, addr);
		if (!vma || vma->vm_start > addr || vma->vm_file ||
		    (vma->vm_flags & (VM_SHARED | VM_WRITE)) != VM_WRITE)
			break;		/* clear_user does the rest */
		stop = min(end, vma->vm_end);
		if (zeromap_page_range(vma, addr, stop))
			break;
		addr = stop;
	}
	mmap_read_unlock(mm);
	return addr;
}

/* read(2) of /dev/zero: clear_user, or the zeromap trick under refcount
 * for the page-aligned middle of the buffer. */
ssize_t zero_read_user(struct file *f, char __user *buf, size_t n,
			      loff_t *pos)
{
	unsigned long a = (unsigned long)buf, end = a + n;
	unsigned long head = min(end, PAGE_ALIGN(a)), mid = head;
	size_t left;

	(void)f, (void)pos;
	if (clear_user(buf, head - a))
		return -EFAULT;
	if (zero_page_policy == ZERO_PAGE_REFCOUNT && (end & PAGE_MASK) > head)
		mid = read_zero_pagealigned(head, end & PAGE_MASK);
	left = clear_user((char __user *)mid, end - mid);
	if (left == end - a)
		return -EFAULT;
	return (ssize_t)(n - left);
}

/*
 * f_op->mmap of /dev/zero (Linux's mmap_zero): a private mapping is
 * anonymous memory, the /dev/zero file dropped from it (zpk's VMAs of
 * anonymous memory have none); a shared one is a fresh shmem file's, so
 * that fork shares its pages. f_op->mmap's contract (zpk/fs.h).
 */
int mmap_zero(struct file *f, struct vm_area_struct *vma)
{
	(void)f;
	if (vma->vm_flags & VM_SHARED)
		return shmem_zero_setup(vma);
	vma_set_anonymous(vma);
	return 0;
}
