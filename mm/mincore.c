/* mm/mincore.c — mincore(2): which pages of a range are in memory, one
 * byte each (Linux's mm/mincore.c). A present PTE is resident, the zero
 * page's too (a read fault mapped it); a hole in an anonymous VMA is not;
 * a hole in a file or shmem VMA is resident if the file has that page
 * (its page cache). A swapped-out page is not, unless the swap cache
 * still holds it. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mman.h>
#include <zpk/sched.h>
#include <zpk/string.h>
#include <zpk/swapops.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>

struct mincore_walk {
	unsigned char *vec;
	unsigned long start;
};

static int mincore_pte(pte_t *pte, unsigned long addr, void *priv)
{
	struct mincore_walk *w = priv;

	/* A uffd-wp marker maps nothing: the hole's answer stands. A swap
	 * PTE is in memory only while its page is in the swap cache. */
	if (pte_present(*pte) ||
	    (is_swap_pte(*pte) && swap_cache_has(pte_to_swp_entry(*pte))))
		w->vec[(addr - w->start) >> PAGE_SHIFT] = 1;
	return 0;
}

/* Holes of a file VMA: resident if the file holds the page (Linux's
 * mincore_page); of an anonymous one: not. */
static void mincore_holes(struct vm_area_struct *vma, unsigned long addr,
			  unsigned long end, unsigned char *vec)
{
	struct inode *inode = vma->vm_file ? vma->vm_file->f_inode : NULL;
	unsigned long pgoff = linear_page_index(vma, addr);

	for (; addr < end; addr += PAGE_SIZE, pgoff++)
		*vec++ = inode && inode_find_page(inode, pgoff) ? 1 : 0;
}

/*
 * Linux's do_mincore: the bytes of up to pages pages from addr, as far
 * as the VMA holding addr goes; how many, or -ENOMEM if no VMA holds
 * addr. mmap_lock held for reading.
 */
static long do_mincore(struct mm_struct *mm, unsigned long addr,
		       unsigned long pages, unsigned char *vec)
{
	struct vm_area_struct *vma = find_vma(mm, addr);
	struct mincore_walk w = { vec, addr };
	unsigned long end;

	if (!vma || vma->vm_start > addr)
		return -ENOMEM;
	end = min(vma->vm_end, addr + (pages << PAGE_SHIFT));
	mincore_holes(vma, addr, end, vec);
	walk_page_range_nosplit(mm, addr, end, mincore_pte, &w);
	return (long)((end - addr) >> PAGE_SHIFT);
}

/*
 * mincore(start, len, vec): -EINVAL for an unaligned start, -ENOMEM for a
 * range outside user space or a hole in it (the bytes of the VMAs before
 * it are written), -EFAULT for vec; len 0 is 0 whatever start maps. A
 * page of bytes at a time, copied out with the mmap_lock let go (the copy
 * may fault).
 */
static long sys_mincore(unsigned long start, size_t len,
			unsigned char __user *vec)
{
	struct mm_struct *mm = current->mm;
	unsigned long pages;
	unsigned char *tmp;
	long r = 0;

	if (start & ~PAGE_MASK)
		return -EINVAL;
	if (len > TASK_SIZE || start > TASK_SIZE - len)
		return -ENOMEM;
	pages = (len >> PAGE_SHIFT) + ((len & ~PAGE_MASK) != 0);
	if ((unsigned long)vec > TASK_SIZE - min(pages, TASK_SIZE))
		return -EFAULT;
	tmp = (unsigned char *)__get_free_page(GFP_KERNEL);
	if (!tmp)
		return -EAGAIN;
	while (pages) {
		mmap_read_lock(mm);
		r = do_mincore(mm, start, min(pages, PAGE_SIZE), tmp);
		mmap_read_unlock(mm);
		if (r <= 0)
			break;
		if (copy_to_user(vec, tmp, (size_t)r)) {
			r = -EFAULT;
			break;
		}
		pages -= (unsigned long)r;
		vec += r;
		start += (unsigned long)r << PAGE_SHIFT;
		r = 0;
	}
	free_page((unsigned long)tmp);
	return r;
}
SYSCALL_NOBKL(__NR_mincore, sys_mincore);
