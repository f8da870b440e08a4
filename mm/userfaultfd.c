/* mm/userfaultfd.c — what a userfaultfd's reader does to page tables, as
 * Linux's mm/userfaultfd.c: UFFDIO_COPY, _ZEROPAGE and _CONTINUE map a
 * missing page, UFFDIO_WRITEPROTECT sets and clears the uffd-wp bit. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/mm.h>
#include <zpk/uaccess.h>
#include <zpk/userfaultfd_k.h>
#include "internal.h"

bool vma_is_shmem(const struct vm_area_struct *vma)
{
	return vma->vm_file && vma->vm_file->f_inode->i_shmem;
}

/* addr maps a page past the end of vma's file. */
static bool beyond_eof(const struct vm_area_struct *vma, unsigned long addr)
{
	return vma->vm_file && linear_page_index(vma, addr) >=
	       PAGE_ALIGN(vma->vm_file->f_inode->i_size) >> PAGE_SHIFT;
}

vm_fault_t shmem_userfault(struct vm_area_struct *vma, unsigned long address)
{
	struct page *page;

	if (!(vma->vm_flags & (VM_UFFD_MISSING | VM_UFFD_MINOR)) ||
	    beyond_eof(vma, address))
		return 0;
	page = inode_find_page(vma->vm_file->f_inode,
			       linear_page_index(vma, address));
	if (!page && userfaultfd_missing(vma))
		return VM_FAULT_UFFD_MISSING;
	if (page && userfaultfd_minor(vma))
		return VM_FAULT_UFFD_MINOR;
	return 0;
}

/* The VMA holding all of [dst, dst + len), if a uffd registered it
 * (Linux's find_dst_vma; -ENOENT) and it can take the fill (-EINVAL:
 * wp needs VM_UFFD_WP, CONTINUE shmem). NULL with *err set. */
static struct vm_area_struct *find_dst_vma(struct mm_struct *mm,
					   unsigned long dst, unsigned long len,
					   enum mfill_mode mode, bool wp,
					   long *err)
{
	struct vm_area_struct *vma = find_vma(mm, dst);

	if (!vma || dst < vma->vm_start || dst + len > vma->vm_end ||
	    !vma->vm_userfaultfd_ctx) {
		*err = -ENOENT;
		return NULL;
	}
	if ((wp && !userfaultfd_wp(vma)) ||
	    (mode == MFILL_CONTINUE && !vma_is_shmem(vma))) {
		*err = -EINVAL;
		return NULL;
	}
	return vma;
}

/* The free PTE slot for dst: a none PTE, or a uffd-wp marker (a fill
 * replaces it), returned with its lock (*ptlp) held. NULL with *err
 * -ENOMEM or -EEXIST (a page is there). */
static pte_t *mfill_pte(struct vm_area_struct *vma, unsigned long dst,
			spinlock_t **ptlp, long *err)
{
	pte_t *pte = pte_alloc_map_lock(vma->vm_mm, dst, ptlp);

	*err = -ENOMEM;
	if (!pte)
		return NULL;
	*err = -EEXIST;
	if (pte_none_mostly(*pte))
		return pte;
	pte_unmap_unlock(pte, *ptlp);
	return NULL;
}

/*
 * Maps page at dst through the free slot pte (Linux's
 * mfill_atomic_install_pte): dirty, writable as the VMA is, but never a
 * file's page in a private mapping (a write copies it) nor under wp
 * (UFFDIO_*_MODE_WP: the uffd-wp bit).
 */
static void mfill_install_pte(struct vm_area_struct *vma, unsigned long dst,
			      pte_t *pte, struct page *page, bool in_cache,
			      bool wp)
{
	pte_t entry = pte_mkdirty(pfn_pte(page_to_pfn(page),
					  vm_get_page_prot(vma->vm_flags)));

	if (wp)
		entry = pte_mkuffd_wp(entry);
	else if (in_cache && !(vma->vm_flags & VM_SHARED))
		entry = pte_wrprotect(entry);
	if (in_cache)
		page_add_file_rmap(page);
	else
		page_add_new_anon_rmap(page);
	inc_mm_counter(vma->vm_mm, mm_counter(page));
	(void)dst;
	set_pte(pte, entry);	/* nothing was mapped: nothing to flush */
}

/* page (the caller's reference) becomes a private page of vma at dst, or
 * is freed. 0 or -errno. */
static long mfill_anon_page(struct vm_area_struct *vma, unsigned long dst,
			    struct page *page, bool wp)
{
	spinlock_t *ptl;
	long err;
	pte_t *pte = mfill_pte(vma, dst, &ptl, &err);

	if (!pte) {
		put_page(page);
		return err;
	}
	mfill_install_pte(vma, dst, pte, page, false, wp);
	pte_unmap_unlock(pte, ptl);
	return 0;
}

/* page (the caller's reference) joins a shared shmem VMA's file at dst
 * and is mapped there, or is freed. -EFAULT past EOF, -EEXIST if the
 * file has a page there already. */
static long mfill_shmem_page(struct vm_area_struct *vma, unsigned long dst,
			     struct page *page, bool wp)
{
	struct inode *inode = vma->vm_file->f_inode;
	unsigned long pgoff = linear_page_index(vma, dst);
	long err = beyond_eof(vma, dst) ? -EFAULT :
		   inode_reserve_page(inode, pgoff);	/* may reclaim */
	spinlock_t *ptl;
	pte_t *pte = err ? NULL : mfill_pte(vma, dst, &ptl, &err);

	if (pte)
		err = inode_add_page(inode, pgoff, page);
	if (!pte || err) {
		if (pte)
			pte_unmap_unlock(pte, ptl);
		put_page(page);
		return err;
	}
	mfill_install_pte(vma, dst, pte, page, true, wp);
	pte_unmap_unlock(pte, ptl);
	return 0;
}

/* UFFDIO_ZEROPAGE in a private VMA: what a read fault maps, the zero
 * page under special and refcount (Linux's mfill_zeropage_pte), a zeroed
 * page of its own under off (as Linux where mm_forbids_zeropage). */
static long mfill_zeropage(struct vm_area_struct *vma, unsigned long dst)
{
	long err = -EFAULT;
	spinlock_t *ptl;
	pte_t *pte = beyond_eof(vma, dst) ? NULL :
		     mfill_pte(vma, dst, &ptl, &err);

	if (!pte)
		return err;
	if (!pte_none(*pte))
		err = -EEXIST;
	else
		err = mfill_zeropage_pte(vma, dst, pte) ? -ENOMEM : 0;
	pte_unmap_unlock(pte, ptl);
	return err;
}

/* UFFDIO_CONTINUE: maps the page shmem has at dst (-EFAULT if none). */
static long mfill_continue(struct vm_area_struct *vma, unsigned long dst)
{
	struct page *page = NULL;
	long err = -EFAULT;
	spinlock_t *ptl;
	pte_t *pte;

	if (!beyond_eof(vma, dst))
		page = inode_find_page(vma->vm_file->f_inode,
				       linear_page_index(vma, dst));
	if (!page)
		return err;
	pte = mfill_pte(vma, dst, &ptl, &err);
	if (!pte)
		return err;
	mfill_install_pte(vma, dst, pte, page, true, false);
	pte_unmap_unlock(pte, ptl);
	return 0;
}

/* The page an UFFDIO_COPY or a shared ZEROPAGE maps: src's contents,
 * or zeros. Made before the VMA is looked up, since reading src may
 * fault and sleep. NULL with *err set. */
static struct page *mfill_new_page(unsigned long src, enum mfill_mode mode,
				   long *err)
{
	struct page *page = alloc_page(mode == MFILL_COPY ? GFP_KERNEL :
				       GFP_KERNEL | __GFP_ZERO);

	*err = -ENOMEM;
	if (!page || mode != MFILL_COPY)
		return page;
	if (copy_from_user(page_address(page), (const void __user *)src,
			   PAGE_SIZE)) {
		__free_page(page);
		*err = -EFAULT;
		return NULL;
	}
	return page;
}

/* The fills that need no page made first, mmap_lock held for reading:
 * CONTINUE and a private ZEROPAGE. 1 for the others. */
static long mfill_in_place(struct vm_area_struct *vma, unsigned long dst,
			   enum mfill_mode mode)
{
	if (mode == MFILL_CONTINUE)
		return mfill_continue(vma, dst);
	if (mode == MFILL_ZEROPAGE && !(vma->vm_flags & VM_SHARED))
		return mfill_zeropage(vma, dst);
	return 1;
}

/*
 * One page of mfill_atomic (Linux's mfill_atomic_pte): 0 or -errno.
 * Under mm's mmap_lock for reading, but src is read without it: that may
 * fault, even sleep for a userfault, in current's own mm.
 */
static long mfill_atomic_pte(struct mm_struct *mm, unsigned long dst,
			     unsigned long src, enum mfill_mode mode, bool wp)
{
	struct vm_area_struct *vma;
	struct page *page;
	long err;

	mmap_read_lock(mm);
	vma = find_dst_vma(mm, dst, PAGE_SIZE, mode, wp, &err);
	if (vma)
		err = mfill_in_place(vma, dst, mode);
	mmap_read_unlock(mm);
	if (err <= 0)
		return err;
	page = mfill_new_page(src, mode, &err);
	if (!page)
		return err;
	/* Unlocked while src was read: vma may have changed or gone. */
	mmap_read_lock(mm);
	vma = find_dst_vma(mm, dst, PAGE_SIZE, mode, wp, &err);
	if (!vma)
		put_page(page);
	else if (vma->vm_flags & VM_SHARED)
		err = mfill_shmem_page(vma, dst, page, wp);
	else
		err = mfill_anon_page(vma, dst, page, wp);
	mmap_read_unlock(mm);
	return err;
}

long mfill_atomic(struct mm_struct *mm, unsigned long dst,
		  unsigned long src, unsigned long len, enum mfill_mode mode,
		  bool wp)
{
	unsigned long done;
	long err = 0;

	mmap_read_lock(mm);
	if (!find_dst_vma(mm, dst, len, mode, wp, &err)) {
		mmap_read_unlock(mm);
		return err;
	}
	mmap_read_unlock(mm);
	for (done = 0; done < len && !err; done += PAGE_SIZE)
		err = mfill_atomic_pte(mm, dst + done, src + done, mode, wp);
	if (err)
		done -= PAGE_SIZE;
	return done ? (long)done : err;
}

/* ---- UFFDIO_WRITEPROTECT -------------------------------------------- */

/* Protecting the none PTEs of a shmem range leaves markers there: its
 * pages may be in the file, unmapped here (Linux's uffd_wp_protect_file). */
static void uffd_wp_markers(struct vm_area_struct *vma, unsigned long start,
			    unsigned long end)
{
	for (unsigned long addr = start; addr < end; addr += PAGE_SIZE) {
		spinlock_t *ptl;
		pte_t *pte = pte_alloc_map_lock(vma->vm_mm, addr, &ptl);

		if (!pte)
			continue;
		if (pte_none(*pte))
			set_pte(pte, make_pte_marker_uffd_wp());
		pte_unmap_unlock(pte, ptl);
	}
}

void uffd_wp_range(struct vm_area_struct *vma, unsigned long start,
		   unsigned long len, bool enable_wp)
{
	if (enable_wp && vma->vm_file)
		uffd_wp_markers(vma, start, start + len);
	change_protection(vma->vm_mm, start, start + len, vma->vm_flags,
			  enable_wp ? MM_CP_UFFD_WP : MM_CP_UFFD_WP_RESOLVE);
}

int mwriteprotect_range(struct mm_struct *mm, unsigned long start,
			unsigned long len, bool enable_wp)
{
	struct vm_area_struct *vma;
	long err;

	mmap_read_lock(mm);	/* as Linux's: PTEs change under their locks */
	vma = find_dst_vma(mm, start, len, MFILL_COPY, false, &err);
	err = vma && userfaultfd_wp(vma) ? 0 : -ENOENT;
	if (!err)
		uffd_wp_range(vma, start, len, enable_wp);
	mmap_read_unlock(mm);
	return err;
}
