/* mm/userfaultfd.c — what a userfaultfd's reader does to page tables, as
 * Linux's mm/userfaultfd.c: UFFDIO_COPY, _ZEROPAGE and _CONTINUE map a
 * missing page, UFFDIO_WRITEPROTECT sets and clears the uffd-wp bit. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/mm.h>
#include <zpk/uaccess.h>
#include <zpk/userfaultfd_k.h>

bool vma_is_shmem(const struct vm_area_struct *vma)
{
	return vma->vm_file && vma->vm_file->f_inode->i_shmem;
}

/* The page of vma's file that addr maps (Linux's linear_page_index). */
static unsigned long linear_page_index(const struct vm_area_struct *vma,
				       unsigned long addr)
{
	return vma->vm_pgoff + ((addr - vma->vm_start) >> PAGE_SHIFT);
}

/* addr maps a page past the end of vma's file. */
static bool beyond_eof(const struct vm_area_struct *vma, unsigned long addr)
{
	return vma->vm_file && linear_page_index(vma, addr) >=
	       PAGE_ALIGN(vma->vm_file->f_inode->i_size) >> PAGE_SHIFT;
}

vm_fault_t shmem_userfault(struct vm_area_struct *vma, unsigned long address,
			   unsigned int flags)
{
	struct page *page;

	if (!(vma->vm_flags & (VM_UFFD_MISSING | VM_UFFD_MINOR)) ||
	    beyond_eof(vma, address))
		return 0;
	page = inode_find_page(vma->vm_file->f_inode,
			       linear_page_index(vma, address));
	if (!page && userfaultfd_missing(vma))
		return handle_userfault(vma, address, flags, VM_UFFD_MISSING);
	if (page && userfaultfd_minor(vma))
		return handle_userfault(vma, address, flags, VM_UFFD_MINOR);
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
 * replaces it). NULL with *err -ENOMEM or -EEXIST (a page is there). */
static pte_t *mfill_pte(struct vm_area_struct *vma, unsigned long dst,
			long *err)
{
	pte_t *pte = pte_alloc_map(vma->vm_mm, dst);

	*err = -ENOMEM;
	if (!pte)
		return NULL;
	*err = -EEXIST;
	return pte_none_mostly(*pte) ? pte : NULL;
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
	long err;
	pte_t *pte = mfill_pte(vma, dst, &err);

	if (!pte) {
		put_page(page);
		return err;
	}
	mfill_install_pte(vma, dst, pte, page, false, wp);
	return 0;
}

/* page (the caller's reference) joins a shared shmem VMA's file at dst
 * and is mapped there, or is freed. -EFAULT past EOF, -EEXIST if the
 * file has a page there already. */
static long mfill_shmem_page(struct vm_area_struct *vma, unsigned long dst,
			     struct page *page, bool wp)
{
	long err = -EFAULT;
	pte_t *pte = beyond_eof(vma, dst) ? NULL : mfill_pte(vma, dst, &err);

	if (pte)
		err = inode_add_page(vma->vm_file->f_inode,
				     linear_page_index(vma, dst), page);
	if (!pte || err) {
		put_page(page);
		return err;
	}
	mfill_install_pte(vma, dst, pte, page, true, wp);
	return 0;
}

/* UFFDIO_ZEROPAGE in a private VMA: what a read fault maps, the zero
 * page under special and refcount (Linux's mfill_zeropage_pte), a zeroed
 * page of its own under off (as Linux where mm_forbids_zeropage). */
static long mfill_zeropage(struct vm_area_struct *vma, unsigned long dst)
{
	long err = -EFAULT;
	pte_t *pte = beyond_eof(vma, dst) ? NULL : mfill_pte(vma, dst, &err);

	if (!pte)
		return err;
	if (!pte_none(*pte))
		return -EEXIST;
	return mfill_zeropage_pte(vma, dst, pte) ? -ENOMEM : 0;
}

/* UFFDIO_CONTINUE: maps the page shmem has at dst (-EFAULT if none). */
static long mfill_continue(struct vm_area_struct *vma, unsigned long dst)
{
	struct page *page = NULL;
	long err = -EFAULT;
	pte_t *pte;

	if (!beyond_eof(vma, dst))
		page = inode_find_page(vma->vm_file->f_inode,
				       linear_page_index(vma, dst));
	if (!page)
		return err;
	pte = mfill_pte(vma, dst, &err);
	if (!pte)
		return err;
	mfill_install_pte(vma, dst, pte, page, true, false);
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

/* One page of mfill_atomic (Linux's mfill_atomic_pte): 0 or -errno. */
static long mfill_atomic_pte(struct mm_struct *mm, unsigned long dst,
			     unsigned long src, enum mfill_mode mode, bool wp)
{
	struct vm_area_struct *vma;
	struct page *page;
	long err;

	vma = find_dst_vma(mm, dst, PAGE_SIZE, mode, wp, &err);
	if (!vma)
		return err;
	if (mode == MFILL_CONTINUE)
		return mfill_continue(vma, dst);
	if (mode == MFILL_ZEROPAGE && !(vma->vm_flags & VM_SHARED))
		return mfill_zeropage(vma, dst);
	page = mfill_new_page(src, mode, &err);
	if (!page)
		return err;
	/* Reading src may have slept: vma may have changed or gone. */
	vma = find_dst_vma(mm, dst, PAGE_SIZE, mode, wp, &err);
	if (!vma) {
		put_page(page);
		return err;
	}
	if (vma->vm_flags & VM_SHARED)
		return mfill_shmem_page(vma, dst, page, wp);
	return mfill_anon_page(vma, dst, page, wp);
}

long mfill_atomic(struct mm_struct *mm, unsigned long dst,
		  unsigned long src, unsigned long len, enum mfill_mode mode,
		  bool wp)
{
	unsigned long done;
	long err = 0;

	if (!find_dst_vma(mm, dst, len, mode, wp, &err))
		return err;
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
		pte_t *pte = pte_alloc_map(vma->vm_mm, addr);

		if (pte && pte_none(*pte))
			set_pte(pte, make_pte_marker_uffd_wp());
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
	long err;
	struct vm_area_struct *vma = find_dst_vma(mm, start, len, MFILL_COPY,
						  false, &err);

	if (!vma || !userfaultfd_wp(vma))
		return -ENOENT;
	uffd_wp_range(vma, start, len, enable_wp);
	return 0;
}
