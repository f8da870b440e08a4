/* mm/truncate.c — what truncating a file does to its mappings: the pages
 * past the new end leave every page table before the file lets them go. */
#include <zpk/fs.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/sched.h>

/* The part of vma that maps inode at page index first or later: zapped. */
static void unmap_vma_from(struct vm_area_struct *vma, unsigned long first)
{
	unsigned long start = vma->vm_start;

	if (first > vma->vm_pgoff) {
		if (first - vma->vm_pgoff >= vma_pages(vma))
			return;
		start += (first - vma->vm_pgoff) << PAGE_SHIFT;
	}
	zap_page_range(vma, start, vma->vm_end);
}

/*
 * Linux's unmap_mapping_range(mapping, holebegin, 0, 1) for truncate:
 * every PTE of every mm that maps inode from byte holebegin (rounded up
 * to a page) on is zapped, private COW copies of those pages too, so that
 * the next access faults past EOF (SIGBUS) or finds the file's new page.
 * The mappings are found by walking every task's VMAs. Called before the
 * file drops its own references to those pages.
 */
void unmap_mapping_range(struct inode *inode, loff_t holebegin)
{
	unsigned long first = PAGE_ALIGN((u64)holebegin) >> PAGE_SHIFT;
	struct vm_area_struct *vma;
	struct task_struct *t;

	list_for_each_entry(t, &task_list, tasks) {
		if (!t->mm)
			continue;
		list_for_each_entry(vma, &t->mm->mmap, vm_list)
			if (vma->vm_file && vma->vm_file->f_inode == inode)
				unmap_vma_from(vma, first);
	}
}
