/* mm/mmap.c — a process's VMAs: the sorted mm->mmap list and the mm_rb
 * tree, mmap, munmap and brk on them, with splitting, merging (vma_modify,
 * for mprotect, madvise, mlock, mbind) and the *_vm counters. */
#include <asm/tlb.h>
#include <zpk/bug.h>
#include <zpk/errno.h>
#include <zpk/huge_mm.h>
#include <zpk/fs.h>
#include <zpk/memblock.h>
#include <zpk/mm.h>
#include <zpk/mman.h>
#include <zpk/slab.h>
#include <zpk/swap.h>
#include "internal.h"

struct kmem_cache *vm_area_cachep;
int sysctl_max_map_count = DEFAULT_MAX_MAP_COUNT;

/* Linux's is_{exec,stack,data}_mapping, and locked_vm, in one place. */
void vm_stat_account(struct mm_struct *mm, unsigned long flags, long npages)
{
	mm->total_vm += npages;
	if ((flags & (VM_EXEC | VM_WRITE | VM_STACK)) == VM_EXEC)
		mm->exec_vm += npages;
	else if (flags & VM_STACK)
		mm->stack_vm += npages;
	else if ((flags & (VM_WRITE | VM_SHARED)) == VM_WRITE)
		mm->data_vm += npages;
	if (flags & VM_LOCKED)
		mm->locked_vm += npages;
}

void mm_init_vmas(struct mm_struct *mm)
{
	/* The first mm is made at boot, before a second CPU runs anything:
	 * creating the cache lazily races with nothing. */
	if (!vm_area_cachep)
		vm_area_cachep = kmem_cache_create("vm_area_struct",
				sizeof(struct vm_area_struct), 0);
	BUG_ON(!vm_area_cachep);
	INIT_LIST_HEAD(&mm->mmap);
	init_rwsem(&mm->mmap_lock);
	spin_lock_init(&mm->page_table_lock);
	mm->mm_rb = RB_ROOT;
	mm->mmap_cache = NULL;
	mm->map_count = 0;
	mm->mmap_base = MMAP_BASE;
	mm->total_vm = mm->locked_vm = mm->data_vm = 0;
	mm->exec_vm = mm->stack_vm = 0;
}

static inline struct vm_area_struct *vma_of_rb(struct rb_node *n)
{
	return rb_entry(n, struct vm_area_struct, vm_rb);
}

/*
 * A one-entry cache, then a walk down mm_rb: O(log n), as Linux until 6.0.
 * A run of faults in one VMA finds it at once. The cache is checked against
 * the VMA's current bounds, so splits and merges cannot make it lie; only
 * freeing the VMA (remove_vma) must clear it.
 */
struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *vma = mm->mmap_cache, *v;
	struct rb_node *n;

	if (vma && vma->vm_start <= addr && addr < vma->vm_end)
		return vma;
	vma = NULL;
	n = mm->mm_rb.rb_node;
	while (n) {
		v = vma_of_rb(n);
		if (v->vm_end > addr) {
			vma = v;	/* a candidate: is one lower still? */
			if (v->vm_start <= addr)
				break;
			n = n->rb_left;
		} else {
			n = n->rb_right;
		}
	}
	if (vma)
		mm->mmap_cache = vma;
	return vma;
}

struct vm_area_struct *find_vma_prev(struct mm_struct *mm, unsigned long addr,
				     struct vm_area_struct **pprev)
{
	struct vm_area_struct *vma = find_vma(mm, addr);

	if (vma)
		*pprev = vma_prev(mm, vma);
	else
		*pprev = list_empty(&mm->mmap) ? NULL : vma_of(mm->mmap.prev);
	return vma;
}

struct vm_area_struct *find_vma_intersection(struct mm_struct *mm,
					     unsigned long start,
					     unsigned long end)
{
	struct vm_area_struct *vma = find_vma(mm, start);

	if (vma && vma->vm_start < end)
		return vma;
	return NULL;
}

/* mm/internal.h. */
bool range_mapped(struct mm_struct *mm, unsigned long start,
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

/*
 * Where a VMA starting at addr goes in mm_rb: returns the NULL link to
 * hang it on, *rb_parent the node that link belongs to, and *pnext the
 * first VMA above addr (NULL if none), which it goes before in the list.
 */
static struct rb_node **find_vma_links(struct mm_struct *mm,
				       unsigned long addr,
				       struct rb_node **rb_parent,
				       struct vm_area_struct **pnext)
{
	struct rb_node **link = &mm->mm_rb.rb_node, *parent = NULL;

	*pnext = NULL;
	while (*link) {
		parent = *link;
		if (addr < vma_of_rb(parent)->vm_start) {
			*pnext = vma_of_rb(parent);
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
		}
	}
	*rb_parent = parent;
	return link;
}

/*
 * Only vma_link and remove_vma change the tree. Elsewhere a VMA's
 * vm_start moves in place (merges, splits, stack growth) only within the
 * gap beside it, so it keeps its place in the order and the tree stays
 * sorted without re-linking.
 */
void vma_link(struct mm_struct *mm, struct vm_area_struct *vma)
{
	struct vm_area_struct *next;
	struct rb_node *parent, **link;

	link = find_vma_links(mm, vma->vm_start, &parent, &next);
	list_add_tail(&vma->vm_list, next ? &next->vm_list : &mm->mmap);
	rb_link_node(&vma->vm_rb, parent, link);
	rb_insert_color(&vma->vm_rb, &mm->mm_rb);
	mm->map_count++;
}

/* Unlinks and frees vma; its pages must already be accounted for. Each
 * VMA of a file holds a reference to it. */
static void remove_vma(struct mm_struct *mm, struct vm_area_struct *vma)
{
	list_del(&vma->vm_list);
	rb_erase(&vma->vm_rb, &mm->mm_rb);
	mm->map_count--;
	if (mm->mmap_cache == vma)
		mm->mmap_cache = NULL;
	if (vma->vm_ops && vma->vm_ops->close)
		vma->vm_ops->close(vma);
	if (vma->vm_file)
		fput(vma->vm_file);
	kmem_cache_free(vm_area_cachep, vma);
}

/*
 * Shared anonymous memory has no file to tell two mappings apart, so its
 * VMAs never merge: two neighbours might be different objects. Nor do
 * two registered with different userfaultfds, or with different memory
 * policies (mbind). Soft-dirty does not keep VMAs apart (Linux's
 * is_mergeable_vma): the merged VMA is all soft-dirty if either part was
 * (vma_merge_softdirty).
 */
static bool can_merge(struct vm_area_struct *vma, unsigned long vm_flags,
		      struct file *file, const struct mempolicy *pol,
		      struct userfaultfd_ctx *ctx)
{
	if ((vma->vm_flags ^ vm_flags) & ~VM_SOFTDIRTY ||
	    vma->vm_file != file || !mpol_equal(&vma->vm_policy, pol) ||
	    vma->vm_userfaultfd_ctx != ctx)
		return false;
	return file || !(vm_flags & VM_SHARED);
}

/* vma took in a range with vm_flags. A part that was soft-dirty keeps its
 * pages' writes unseen (writable PTEs not soft-dirty), so the whole VMA
 * must report soft-dirty from now on. */
static void vma_merge_softdirty(struct vm_area_struct *vma,
				unsigned long vm_flags)
{
	vma->vm_flags |= vm_flags & VM_SOFTDIRTY;
}

struct vm_area_struct *vma_merge(struct mm_struct *mm,
				 struct vm_area_struct *prev,
				 unsigned long addr, unsigned long end,
				 unsigned long vm_flags, struct file *file,
				 unsigned long pgoff,
				 const struct mempolicy *pol)
{
	struct vm_area_struct *next;
	bool with_prev, with_next;

	next = prev ? vma_next(mm, prev) : find_vma(mm, addr);
	with_prev = prev && prev->vm_end == addr &&
		    can_merge(prev, vm_flags, file, pol, NULL) &&
		    prev->vm_pgoff + vma_pages(prev) == pgoff;
	with_next = next && next->vm_start == end &&
		    can_merge(next, vm_flags, file, pol, NULL) &&
		    pgoff + ((end - addr) >> PAGE_SHIFT) == next->vm_pgoff;
	if (with_prev && with_next) {
		prev->vm_end = next->vm_end;
		vma_merge_softdirty(prev, vm_flags | next->vm_flags);
		remove_vma(mm, next);
		return prev;
	}
	if (with_prev) {
		prev->vm_end = end;
		vma_merge_softdirty(prev, vm_flags);
		return prev;
	}
	if (with_next) {
		next->vm_start = addr;
		next->vm_pgoff = pgoff;
		vma_merge_softdirty(next, vm_flags);
		return next;
	}
	return NULL;
}

/* split_vma without the max_map_count check: munmap's, which checks
 * only where its result has more VMAs than before (Linux's). */
static int __split_vma(struct mm_struct *mm, struct vm_area_struct *vma,
		       unsigned long addr, int new_below)
{
	struct vm_area_struct *new;

	BUG_ON(addr <= vma->vm_start || addr >= vma->vm_end ||
	       (addr & ~PAGE_MASK));
	new = kmem_cache_alloc(vm_area_cachep, GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	/* A huge PMD never straddles two VMAs (Linux's
	 * vma_adjust_trans_huge): fork and zap take each whole. */
	if (addr & ~HPAGE_PMD_MASK)
		split_huge_pmd_address(mm, addr);
	*new = *vma;
	if (new->vm_file)
		get_file(new->vm_file);
	if (new_below) {
		new->vm_end = addr;
		vma->vm_pgoff += (addr - vma->vm_start) >> PAGE_SHIFT;
		vma->vm_start = addr;
	} else {
		new->vm_start = addr;
		new->vm_pgoff += (addr - vma->vm_start) >> PAGE_SHIFT;
		vma->vm_end = addr;
	}
	vma_link(mm, new);
	return 0;
}

int split_vma(struct mm_struct *mm, struct vm_area_struct *vma,
	      unsigned long addr, int new_below)
{
	if (mm->map_count >= sysctl_max_map_count)
		return -ENOMEM;
	return __split_vma(mm, vma, addr, new_below);
}

/* The highest gap of len bytes in [low, high), or -ENOMEM. */
static unsigned long unmapped_area_topdown(struct mm_struct *mm,
					   unsigned long len,
					   unsigned long low,
					   unsigned long high)
{
	unsigned long gap_end = high;
	struct vm_area_struct *vma;
	struct list_head *l;

	for (l = mm->mmap.prev; l != &mm->mmap; l = l->prev) {
		vma = vma_of(l);
		if (vma->vm_end >= gap_end) {
			/* Above or across the top of the gap: lowers it. */
			gap_end = min(gap_end, vma->vm_start);
			continue;
		}
		if (gap_end - vma->vm_end >= len && gap_end >= low + len)
			return gap_end - len;
		gap_end = vma->vm_start;
		if (gap_end < low + len)
			return -ENOMEM;
	}
	if (gap_end >= low + len)
		return gap_end - len;
	return -ENOMEM;
}

/* The lowest gap of len bytes in [low, high), or -ENOMEM. */
static unsigned long unmapped_area(struct mm_struct *mm, unsigned long len,
				   unsigned long low, unsigned long high)
{
	unsigned long start = low;
	struct vm_area_struct *vma;

	list_for_each_entry(vma, &mm->mmap, vm_list) {
		if (vma->vm_end <= start)
			continue;
		if (start + len > high)
			return -ENOMEM;
		if (vma->vm_start >= start + len)
			return start;
		start = vma->vm_end;
	}
	return start + len <= high ? start : (unsigned long)-ENOMEM;
}

unsigned long get_unmapped_area(struct mm_struct *mm, unsigned long addr,
				unsigned long len, unsigned long flags)
{
	unsigned long low = max(MMAP_MIN_ADDR, PAGE_SIZE);
	unsigned long found;

	if (len > TASK_SIZE)
		return -ENOMEM;
	if (flags & MAP_FIXED) {
		if (addr > TASK_SIZE - len)
			return -ENOMEM;
		if (addr & ~PAGE_MASK)
			return -EINVAL;
		return addr;
	}
	if (addr) {
		addr = PAGE_ALIGN(addr);
		if (addr >= low && addr <= TASK_SIZE - len &&
		    !find_vma_intersection(mm, addr, addr + len))
			return addr;
	}
	found = unmapped_area_topdown(mm, len, low, mm->mmap_base);
	if (IS_ERR_VALUE(found))
		found = unmapped_area(mm, len, TASK_UNMAPPED_BASE, TASK_SIZE);
	return found;
}

/*
 * Linux's heuristic overcommit (OVERCOMMIT_GUESS in __vm_enough_memory):
 * memory that may have to be backed, a private writable mapping or shared
 * anonymous memory, may not be larger than all of RAM and the swap areas
 * on in one request; MAP_NORESERVE (VM_NORESERVE) is not checked.
 */
static bool vm_enough_memory(unsigned long pages)
{
	return pages <= totalram_pages() + get_total_swap_pages();
}

/*
 * Maps [addr, addr + len) with vm_flags, replacing what was there: extends
 * a neighbour if one continues it, else links a new VMA. The VMA is
 * allocated before the old mappings go, so ENOMEM leaves them intact.
 * mremap's new VMA comes from here too (Linux's copy_vma), with the old
 * one's memory policy (pol; NULL: MPOL_DEFAULT).
 */
long mmap_region(struct mm_struct *mm, unsigned long addr,
			unsigned long len, unsigned long vm_flags,
			struct file *file, unsigned long pgoff,
			const struct mempolicy *pol)
{
	static const struct mempolicy default_policy;
	unsigned long end = addr + len;
	struct vm_area_struct *vma, *prev;
	int err;

	if ((vm_flags & (VM_WRITE | VM_SHARED | VM_NORESERVE)) == VM_WRITE &&
	    !vm_enough_memory(len >> PAGE_SHIFT))
		return -ENOMEM;
	vma = kmem_cache_alloc(vm_area_cachep, GFP_KERNEL);
	if (!vma)
		return -ENOMEM;
	err = do_munmap(mm, addr, len);
	if (err) {
		kmem_cache_free(vm_area_cachep, vma);
		return err;
	}
	if (!pol)
		pol = &default_policy;
	find_vma_prev(mm, addr, &prev);
	if (vma_merge(mm, prev, addr, end, vm_flags, file, pgoff, pol)) {
		vm_stat_account(mm, vm_flags, len >> PAGE_SHIFT);
		kmem_cache_free(vm_area_cachep, vma);
		return addr;
	}
	vma->vm_start = addr;
	vma->vm_end = end;
	vma->vm_flags = vm_flags;
	vma->vm_policy = *pol;
	vma->vm_pgoff = pgoff;
	vma->vm_file = file ? get_file(file) : NULL;
	vma->vm_ops = NULL;
	vma->vm_mm = mm;
	vma->vm_userfaultfd_ctx = NULL;
	/* What the memory is: its file's say (Linux's call_mmap), or a
	 * shmem file's for shared anonymous memory. */
	if (file)
		err = file->f_op->mmap(file, vma);
	else if (vm_flags & VM_SHARED)
		err = shmem_zero_setup(vma);
	if (err) {
		if (vma->vm_file)
			fput(vma->vm_file);
		kmem_cache_free(vm_area_cachep, vma);
		return err;
	}
	vm_stat_account(mm, vm_flags, len >> PAGE_SHIFT);
	vma_link(mm, vma);
	return addr;
}

void vma_set_anonymous(struct vm_area_struct *vma)
{
	if (vma->vm_file)
		fput(vma->vm_file);
	vma->vm_file = NULL;
	vma->vm_ops = NULL;
	/* as do_mmap numbers private anonymous memory, to merge */
	vma->vm_pgoff = vma->vm_start >> PAGE_SHIFT;
}

/* A file open for reading only (or on the read-only initrd). */
static bool file_may_write(struct file *file)
{
	return (file->f_flags & O_ACCMODE) != O_RDONLY &&
	       !file->f_inode->i_readonly;
}

/* A memfd's seals, as Linux 6.6 on (memfd_check_seals_mmap): under
 * F_SEAL_WRITE or F_SEAL_FUTURE_WRITE no shared mapping is writable,
 * and a read-only one may never become writable (nor, without
 * VM_MAYWRITE, stands in F_SEAL_WRITE's way). Linux before 6.6 refused
 * any shared mapping of a file under F_SEAL_WRITE. 0 or -EPERM. */
static int seal_check_mmap(struct inode *inode, unsigned long *vm_flags)
{
	if (!(*vm_flags & VM_SHARED))
		return 0;
	if (!(inode->i_seals & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE)))
		return 0;
	if (*vm_flags & VM_WRITE)
		return -EPERM;
	*vm_flags &= ~VM_MAYWRITE;
	return 0;
}

/* MAP_SHARED|MAP_ANONYMOUS and shared /dev/zero: a mapping of a fresh
 * shmem file, so that fork shares the pages and not copies. */
int shmem_zero_setup(struct vm_area_struct *vma)
{
	unsigned long len = vma->vm_end - vma->vm_start;
	struct file *file;

	/* Linux's shmem_acct_size */
	if (!(vma->vm_flags & VM_NORESERVE) &&
	    !vm_enough_memory(len >> PAGE_SHIFT))
		return -ENOMEM;
	file = shmem_file_setup("dev/zero", len);
	if (!file)
		return -ENOMEM;
	if (vma->vm_file)
		fput(vma->vm_file);
	vma->vm_file = file;	/* shmem_file_setup's reference */
	vma->vm_pgoff = 0;
	return file->f_op->mmap(file, vma);
}

long do_mmap(struct mm_struct *mm, unsigned long addr, unsigned long len,
	     unsigned long prot, unsigned long flags, struct file *file,
	     unsigned long pgoff)
{
	unsigned long vm_flags;

	if (!len)
		return -EINVAL;
	if (flags & MAP_FIXED_NOREPLACE)
		flags |= MAP_FIXED;
	if (!(flags & MAP_FIXED) && addr && addr < MMAP_MIN_ADDR)
		addr = MMAP_MIN_ADDR;	/* Linux's round_hint_to_min */
	len = PAGE_ALIGN(len);
	if (!len)
		return -ENOMEM;		/* it wrapped: bigger than anything */
	if (pgoff + (len >> PAGE_SHIFT) < pgoff)
		return -EOVERFLOW;
	/* Linux's historical ">": a mapping at the limit may still be made
	 * (it might merge), leaving map_count one above it. */
	if (mm->map_count > sysctl_max_map_count)
		return -ENOMEM;
	if (flags & MAP_ANONYMOUS)
		file = NULL;

	vm_flags = calc_vm_prot_bits(prot) | VM_MAYREAD | VM_MAYWRITE |
		   VM_MAYEXEC;
	switch (flags & MAP_TYPE) {
	case MAP_SHARED:
		if (!file && (flags & MAP_GROWSDOWN))
			return -EINVAL;
		vm_flags |= VM_SHARED | VM_MAYSHARE;
		if (!file)
			pgoff = 0;
		else if (!file_may_write(file)) {
			/* Linux: never writable, so not really shared. */
			if (prot & PROT_WRITE)
				return -EACCES;
			vm_flags &= ~(VM_MAYWRITE | VM_SHARED);
		}
		break;
	case MAP_PRIVATE:
		break;
	default:
		return -EINVAL;	/* neither, both, or an unknown type */
	}
	/* Linux's order: a file not open for reading, then one that cannot
	 * be mapped at all (no f_op->mmap: pipes, /proc, a userfaultfd). */
	if (file && (file->f_flags & O_ACCMODE) == O_WRONLY)
		return -EACCES;
	if (file && !file->f_op->mmap)
		return -ENODEV;
	if (file && seal_check_mmap(file->f_inode, &vm_flags))
		return -EPERM;
	if (flags & MAP_GROWSDOWN)
		vm_flags |= VM_GROWSDOWN;
	if (flags & MAP_LOCKED)
		vm_flags |= VM_LOCKED;
	if (flags & MAP_NORESERVE)
		vm_flags |= VM_NORESERVE;
	vm_flags |= mm->def_flags;	/* mlockall(MCL_FUTURE) */
	/* New memory is all soft-dirty, also where an old mapping stood
	 * (Linux's mmap_region): a tracker must not take it for the old. */
	vm_flags |= VM_SOFTDIRTY;

	addr = get_unmapped_area(mm, addr, len, flags);
	if (IS_ERR_VALUE(addr))
		return (long)addr;
	if ((flags & MAP_FIXED) && addr < MMAP_MIN_ADDR)
		return -EPERM;
	if ((flags & MAP_FIXED_NOREPLACE) &&
	    find_vma_intersection(mm, addr, addr + len))
		return -EEXIST;
	/* Private anonymous pgoff is the page number, so that neighbours
	 * continue each other and merge; known once addr is. */
	if (!file && !(vm_flags & VM_SHARED))
		pgoff = addr >> PAGE_SHIFT;
	return mmap_region(mm, addr, len, vm_flags, file, pgoff, NULL);
}

int do_munmap(struct mm_struct *mm, unsigned long start, unsigned long len)
{
	struct vm_area_struct *vma, *last, *next;
	struct mmu_gather tlb;
	unsigned long end;
	int err;

	if ((start & ~PAGE_MASK) || start > TASK_SIZE ||
	    len > TASK_SIZE - start)
		return -EINVAL;
	len = PAGE_ALIGN(len);
	if (!len)
		return -EINVAL;
	end = start + len;

	vma = find_vma(mm, start);
	if (!vma || vma->vm_start >= end)
		return 0;	/* a hole: nothing to do, not an error */
	/* Cutting a hole in the middle needs one VMA more: check first.
	 * Other splits here end with no more VMAs than before. */
	if (start > vma->vm_start && end < vma->vm_end &&
	    mm->map_count >= sysctl_max_map_count)
		return -ENOMEM;
	if (start > vma->vm_start) {
		err = __split_vma(mm, vma, start, 1);
		if (err)
			return err;
	}
	last = find_vma(mm, end);
	if (last && last->vm_start < end) {
		err = __split_vma(mm, last, end, 1);
		if (err)
			return err;	/* only split so far: still valid */
	}
	/* Now whole VMAs cover [start, end); the last split may have moved
	 * vma itself above end, so look the first one up again. */
	vma = find_vma(mm, start);
	tlb_gather_mmu(&tlb, mm);	/* one flush for all the VMAs */
	for (; vma && vma->vm_start < end; vma = next) {
		next = vma_next(mm, vma);
		unmap_page_range(&tlb, mm, vma->vm_start, vma->vm_end);
		vm_stat_account(mm, vma->vm_flags, -(long)vma_pages(vma));
		remove_vma(mm, vma);
	}
	next = find_vma_prev(mm, start, &last);
	free_pgd_range(&tlb, start, end, last ? last->vm_end : 0,
		       next ? next->vm_start : TASK_SIZE);
	tlb_finish_mmu(&tlb);	/* one flush, then pages and tables go */
	return 0;
}

/* The VMA's neighbours absorb it (or it them) if they continue it. */
static void vma_merge_neighbours(struct mm_struct *mm,
				 struct vm_area_struct *vma)
{
	struct vm_area_struct *prev = vma_prev(mm, vma);
	struct vm_area_struct *next = vma_next(mm, vma);

	if (prev && prev->vm_end == vma->vm_start &&
	    can_merge(prev, vma->vm_flags, vma->vm_file, &vma->vm_policy,
		      vma->vm_userfaultfd_ctx) &&
	    prev->vm_pgoff + vma_pages(prev) == vma->vm_pgoff) {
		prev->vm_end = vma->vm_end;
		vma_merge_softdirty(prev, vma->vm_flags);
		remove_vma(mm, vma);
		vma = prev;
	}
	if (next && vma->vm_end == next->vm_start &&
	    can_merge(next, vma->vm_flags, vma->vm_file, &vma->vm_policy,
		      vma->vm_userfaultfd_ctx) &&
	    vma->vm_pgoff + vma_pages(vma) == next->vm_pgoff) {
		vma->vm_end = next->vm_end;
		vma_merge_softdirty(vma, next->vm_flags);
		remove_vma(mm, next);
	}
}

/* mm/internal.h. Gives [start, end), inside vma, newflags, the memory
 * policy pol and the userfaultfd ctx: split off, set, merge (mprotect,
 * madvise and mlock's flags, mbind's policy, userfaultfd's registration).
 * mmap_lock held for writing; change_protection takes the PTE locks. */
int vma_modify(struct mm_struct *mm, struct vm_area_struct *vma,
	       unsigned long start, unsigned long end,
	       unsigned long newflags, struct mempolicy pol,
	       struct userfaultfd_ctx *ctx)
{
	bool prot = newflags != vma->vm_flags;
	int err;

	if (!prot && mpol_equal(&pol, &vma->vm_policy) &&
	    ctx == vma->vm_userfaultfd_ctx)
		return 0;
	if (start > vma->vm_start) {
		err = split_vma(mm, vma, start, 1);
		if (err)
			return err;
	}
	if (end < vma->vm_end) {
		err = split_vma(mm, vma, end, 0);
		if (err)
			return err;
	}
	vm_stat_account(mm, vma->vm_flags, -(long)vma_pages(vma));
	vma->vm_flags = newflags;
	vma->vm_policy = pol;
	vma->vm_userfaultfd_ctx = ctx;
	vm_stat_account(mm, newflags, vma_pages(vma));
	if (prot)
		change_protection(mm, start, end, newflags, 0);
	vma_merge_neighbours(mm, vma);
	return 0;
}

int vma_modify_flags_uffd(struct mm_struct *mm, struct vm_area_struct *vma,
			  unsigned long start, unsigned long end,
			  unsigned long newflags, struct userfaultfd_ctx *ctx)
{
	return vma_modify(mm, vma, start, end, newflags, vma->vm_policy, ctx);
}

int vma_modify_flags(struct mm_struct *mm, unsigned long start,
		     unsigned long len, unsigned long set, unsigned long clear)
{
	unsigned long end = start + len, nstart, tmp, newflags;
	struct vm_area_struct *vma;
	int err;

	for (nstart = start; nstart < end; nstart = tmp) {
		vma = find_vma(mm, nstart);
		if (!vma || vma->vm_start > nstart)
			return -ENOMEM;
		tmp = min(vma->vm_end, end);
		newflags = (vma->vm_flags | set) & ~clear;
		err = vma_modify(mm, vma, nstart, tmp, newflags,
				 vma->vm_policy, vma->vm_userfaultfd_ctx);
		if (err)
			return err;
	}
	return 0;
}

int mbind_range(struct mm_struct *mm, unsigned long start,
		unsigned long end, const struct mempolicy *pol)
{
	unsigned long nstart, tmp;
	struct vm_area_struct *vma;
	int err;

	for (nstart = start; nstart < end; nstart = tmp) {
		vma = find_vma(mm, nstart);
		if (!vma || vma->vm_start >= end)
			break;
		nstart = max(nstart, vma->vm_start);
		tmp = min(vma->vm_end, end);
		err = vma_modify(mm, vma, nstart, tmp, vma->vm_flags, *pol,
				 vma->vm_userfaultfd_ctx);
		if (err)
			return err;
	}
	return 0;
}

/* The brk area's anonymous RW VMA for [addr, addr + len), merged if it can. */
static int do_brk_flags(struct mm_struct *mm, unsigned long addr,
			unsigned long len)
{
	unsigned long flags = VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE |
			      VM_MAYEXEC | VM_SOFTDIRTY | mm->def_flags;
	long ret;

	if (mm->map_count > sysctl_max_map_count)
		return -ENOMEM;		/* as do_mmap's */
	ret = mmap_region(mm, addr, len, flags, NULL, addr >> PAGE_SHIFT,
			  NULL);
	return IS_ERR_VALUE(ret) ? (int)ret : 0;
}

unsigned long do_brk(struct mm_struct *mm, unsigned long brk)
{
	unsigned long newbrk, oldbrk;

	if (brk < mm->start_brk || brk > TASK_SIZE)
		return mm->brk;
	newbrk = PAGE_ALIGN(brk);
	oldbrk = PAGE_ALIGN(mm->brk);
	if (oldbrk == newbrk)
		goto set_brk;
	if (brk <= mm->brk) {
		/* Shrinking: unmapping only fails if a split does. */
		if (do_munmap(mm, newbrk, oldbrk - newbrk))
			return mm->brk;
		goto set_brk;
	}
	/* Keep a guard page free above the new break, as Linux does. */
	if (newbrk > TASK_SIZE - PAGE_SIZE ||
	    find_vma_intersection(mm, oldbrk, newbrk + PAGE_SIZE))
		return mm->brk;
	if (do_brk_flags(mm, oldbrk, newbrk - oldbrk))
		return mm->brk;
set_brk:
	mm->brk = brk;
	return brk;
}

int expand_stack(struct vm_area_struct *vma, unsigned long address)
{
	/* LAB(demand-paging) BEGIN task 3: grow the stack down to address */
	/* LAB(faults) BEGIN task 1: grow the stack down to address */
	struct vm_area_struct *prev = vma_prev(vma->vm_mm, vma);
	unsigned long start = address & PAGE_MASK, grow;

	if (!(vma->vm_flags & VM_GROWSDOWN) || start >= vma->vm_start)
		return -EFAULT;
	if (vma->vm_end - start > STACK_RLIMIT)
		return -ENOMEM;
	if (prev && (start < prev->vm_end ||
		     start - prev->vm_end < STACK_GUARD_GAP))
		return -ENOMEM;
	grow = (vma->vm_start - start) >> PAGE_SHIFT;
	vm_stat_account(vma->vm_mm, vma->vm_flags, (long)grow);
	vma->vm_pgoff -= grow;
	vma->vm_start = start;
	return 0;
	/* LAB(faults) END: (void)vma; (void)address; return -EFAULT; */
	/* LAB(demand-paging) END: (void)vma; (void)address; return -EFAULT; */
}

void exit_mmap_vmas(struct mm_struct *mm)
{
	struct vm_area_struct *vma, *n;
	struct mmu_gather tlb;

	tlb_gather_mmu_fullmm(&tlb, mm);
	list_for_each_entry_safe(vma, n, &mm->mmap, vm_list) {
		unmap_page_range(&tlb, mm, vma->vm_start, vma->vm_end);
		remove_vma(mm, vma);
	}
	tlb_finish_mmu(&tlb);
	mm_put_huge_zero_page(mm);
	BUG_ON(mm->map_count);
	mm->total_vm = mm->locked_vm = mm->data_vm = 0;
	mm->exec_vm = mm->stack_vm = 0;
}

/* mm_rb is a valid red-black tree and its in-order walk is the list. */
static void validate_mm_rb(struct mm_struct *mm)
{
	struct rb_node *n = rb_first(&mm->mm_rb);
	struct vm_area_struct *vma;
	const char *why;

	if (rb_check(&mm->mm_rb, &why) < 0)
		BUGF("mm_rb: %s", why);
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		if (n != &vma->vm_rb)
			BUGF("mm_rb in order is not the list at vma [%#lx, %#lx)",
			     vma->vm_start, vma->vm_end);
		n = rb_next(n);
	}
	if (n)
		BUGF("mm_rb holds vma [%#lx, %#lx) that the list does not",
		     vma_of_rb(n)->vm_start, vma_of_rb(n)->vm_end);
}

void validate_mm(struct mm_struct *mm)
{
	unsigned long prev_end = 0, total = 0, locked = 0, data = 0;
	unsigned long exec = 0, stack = 0, n;
	struct vm_area_struct *vma;
	bool cached = false;
	int count = 0;

	list_for_each_entry(vma, &mm->mmap, vm_list) {
		cached |= vma == mm->mmap_cache;
		if (vma->vm_start >= vma->vm_end ||
		    ((vma->vm_start | vma->vm_end) & ~PAGE_MASK) ||
		    vma->vm_end > TASK_SIZE)
			BUGF("bad vma [%#lx, %#lx)", vma->vm_start,
			     vma->vm_end);
		if (vma->vm_start < prev_end)
			BUGF("vma [%#lx, %#lx) overlaps or is below %#lx",
			     vma->vm_start, vma->vm_end, prev_end);
		if (vma->vm_mm != mm)
			BUGF("vma [%#lx, %#lx) of another mm", vma->vm_start,
			     vma->vm_end);
		if (!vma->vm_userfaultfd_ctx != !(vma->vm_flags &
						   __VM_UFFD_FLAGS))
			BUGF("vma [%#lx, %#lx): userfaultfd flags %#lx, ctx %p",
			     vma->vm_start, vma->vm_end,
			     vma->vm_flags & __VM_UFFD_FLAGS,
			     vma->vm_userfaultfd_ctx);
		prev_end = vma->vm_end;
		count++;
		n = vma_pages(vma);
		total += n;
		if ((vma->vm_flags & (VM_EXEC | VM_WRITE | VM_STACK)) ==
		    VM_EXEC)
			exec += n;
		else if (vma->vm_flags & VM_STACK)
			stack += n;
		else if ((vma->vm_flags & (VM_WRITE | VM_SHARED)) == VM_WRITE)
			data += n;
		if (vma->vm_flags & VM_LOCKED)
			locked += n;
	}
	if (count != mm->map_count)
		BUGF("map_count %d but %d vmas", mm->map_count, count);
	validate_mm_rb(mm);
	if (mm->mmap_cache && !cached)
		BUGF("mmap_cache %p is not a vma of this mm", mm->mmap_cache);
	if (total != mm->total_vm || locked != mm->locked_vm ||
	    data != mm->data_vm || exec != mm->exec_vm ||
	    stack != mm->stack_vm)
		BUGF("vm counters total/locked/data/exec/stack %lu %lu %lu %lu %lu, vmas say %lu %lu %lu %lu %lu",
		     mm->total_vm, mm->locked_vm, mm->data_vm, mm->exec_vm,
		     mm->stack_vm, total, locked, data, exec, stack);
}
