/* mm/truncate.c — what truncating a file does to its mappings: the pages
 * past the new end leave every page table before the file lets them go. */
#include <zpk/fs.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mm_lifecycle.h>
#include <zpk/rwsem.h>

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
 * Every mapping of inode, found by walking every mm's VMAs, from the
 * mmlist: mmlist_lock for reading keeps each mm there and allocated
 * (exit_mmap takes it for writing to leave), and each mm's mmap_lock
 * for reading keeps its VMAs (the order of docs/smp.md). Linux keeps a
 * tree of them per file (i_mmap); zpk looks.
 */
bool walk_inode_mappings(struct inode *inode,
			 bool (*fn)(struct vm_area_struct *vma, void *arg),
			 void *arg)
{
	struct vm_area_struct *vma;
	struct mm_struct *mm;
	bool found = false;

	down_read(&mmlist_lock);
	list_for_each_entry(mm, &mmlist, mmlist) {
		mmap_read_lock(mm);
		list_for_each_entry(vma, &mm->mmap, vm_list)
			if (vma->vm_file && vma->vm_file->f_inode == inode &&
			    (found = fn(vma, arg)))
				break;
		mmap_read_unlock(mm);
		if (found)
			break;
	}
	up_read(&mmlist_lock);
	return found;
}

static bool unmap_from(struct vm_area_struct *vma, void *first)
{
	unmap_vma_from(vma, *(unsigned long *)first);
	return false;
}

/*
 * Linux's unmap_mapping_range(mapping, holebegin, 0, 1) for truncate:
 * every PTE of every mm that maps inode from byte holebegin (rounded up
 * to a page) on is zapped, private COW copies of those pages too, so that
 * the next access faults past EOF (SIGBUS) or finds the file's new page.
 * Called before the file drops its own references to those pages.
 */
void unmap_mapping_range(struct inode *inode, loff_t holebegin)
{
	unsigned long first = PAGE_ALIGN((u64)holebegin) >> PAGE_SHIFT;

	walk_inode_mappings(inode, unmap_from, &first);
}
