/* mm/truncate.c — what truncating a file, or punching a hole in it, does
 * to its mappings: the pages leave every page table that maps them. */
#include <zpk/fs.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mm_lifecycle.h>
#include <zpk/rwsem.h>

/* Pages [first, last] of a file, from every mapping (unmap_mapping_pages). */
struct unmap_range {
	unsigned long first, last;
	bool even_cows;
};

/* The part of vma that maps its file's pages r->first to r->last:
 * zapped, private copies too if r->even_cows. */
static bool unmap_from(struct vm_area_struct *vma, void *arg)
{
	struct unmap_range *r = arg;
	unsigned long vfirst = vma->vm_pgoff;
	unsigned long vlast = vfirst + vma_pages(vma) - 1;
	unsigned long start, end;

	if (r->last < vfirst || r->first > vlast)
		return false;
	start = vma->vm_start + ((max(r->first, vfirst) - vfirst) << PAGE_SHIFT);
	end = vma->vm_start + ((min(r->last, vlast) - vfirst + 1) << PAGE_SHIFT);
	if (r->even_cows)
		zap_page_range(vma, start, end);
	else
		zap_file_pages(vma, start, end);
	return false;
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

void unmap_mapping_pages(struct inode *inode, unsigned long first,
			 unsigned long nr, bool even_cows)
{
	struct unmap_range r = { first, first + nr - 1, even_cows };

	if (nr)
		walk_inode_mappings(inode, unmap_from, &r);
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

	unmap_mapping_pages(inode, first, ~0UL - first, true);	/* to the end */
}
