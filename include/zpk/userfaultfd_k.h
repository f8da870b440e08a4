/* zpk/userfaultfd_k.h — userfaultfd: the hooks of the fault path, fork,
 * mremap and madvise into fs/ and mm/userfaultfd.c (Linux's
 * linux/userfaultfd_k.h); the uffd file's ABI is uapi/linux/userfaultfd.h. */
#ifndef ZPK_USERFAULTFD_K_H
#define ZPK_USERFAULTFD_K_H

#include <asm/pgtable.h>
#include <zpk/list.h>
#include <zpk/memory.h>
#include <zpk/mm_types.h>
#include <uapi/asm-generic/ioctl.h>
#include <uapi/linux/userfaultfd.h>

/* ---- the fault path's questions (Linux's userfaultfd_k.h) ----------- */

static inline bool userfaultfd_missing(const struct vm_area_struct *vma)
{
	return vma->vm_flags & VM_UFFD_MISSING;
}
static inline bool userfaultfd_wp(const struct vm_area_struct *vma)
{
	return vma->vm_flags & VM_UFFD_WP;
}
static inline bool userfaultfd_minor(const struct vm_area_struct *vma)
{
	return vma->vm_flags & VM_UFFD_MINOR;
}
/* A write here is the reader's to resolve. */
static inline bool userfaultfd_pte_wp(const struct vm_area_struct *vma,
				      pte_t pte)
{
	return userfaultfd_wp(vma) && pte_uffd_wp(pte);
}

/*
 * Hands the fault at address (flags: handle_mm_fault's) in a registered
 * vma to its uffd's reader, for reason (one VM_UFFD_* flag), and sleeps
 * until the reader resolves it (UFFDIO_COPY, _ZEROPAGE, _CONTINUE,
 * _WRITEPROTECT, _WAKE), unregisters or closes the uffd, or a signal
 * comes (only a fatal one for a fault that is not the user's: see
 * userfault_interrupted). Called with vma's mmap_lock held for reading and no spinlock
 * (handle_mm_fault calls it on a VM_FAULT_UFFD_* answer): the lock goes
 * while it sleeps, so that the reader and the mm's other threads can
 * fault, mmap and unmap (Linux's VM_FAULT_RETRY), and is held again when
 * it returns. Returns VM_FAULT_RETRY (vma may be gone: the caller looks
 * the VMA up again and retries), or VM_FAULT_SIGBUS: the uffd asked for
 * UFFD_FEATURE_SIGBUS, or is UFFD_USER_MODE_ONLY and the fault is the
 * kernel's, or current is exiting.
 */
vm_fault_t handle_userfault(struct vm_area_struct *vma, unsigned long address,
			    unsigned int flags, unsigned long reason);

/* ---- mm/userfaultfd.c: the ioctls that change page tables ----------- */

enum mfill_mode { MFILL_COPY, MFILL_ZEROPAGE, MFILL_CONTINUE };

/*
 * UFFDIO_COPY (src from current's memory), _ZEROPAGE and _CONTINUE into
 * [dst, dst + len) of mm, which must lie in one registered VMA: anonymous
 * or shmem, shmem only for CONTINUE; wp (UFFDIO_COPY_MODE_WP) needs
 * VM_UFFD_WP. Page by page; returns the bytes filled, or, if none was,
 * -ENOENT (no such VMA), -EINVAL, -EEXIST (already mapped, or in the
 * shmem file), -EFAULT (a bad src, past EOF, CONTINUE with no page in
 * the file) or -ENOMEM.
 */
long mfill_atomic(struct mm_struct *mm, unsigned long dst,
		  unsigned long src, unsigned long len, enum mfill_mode mode,
		  bool wp);
/*
 * UFFDIO_WRITEPROTECT: sets (enable_wp) or clears the uffd-wp bit of the
 * PTEs of [start, start + len), which must lie in one VMA registered for
 * WP (-ENOENT otherwise). 0. Takes mm's mmap_lock for reading itself.
 */
int mwriteprotect_range(struct mm_struct *mm, unsigned long start,
			unsigned long len, bool enable_wp);
/*
 * The PTE work of it, for a range of vma: a set bit makes the PTE
 * read-only; clearing it makes the PTE writable again only where
 * mprotect would (change_protection), and drops the markers of a shmem
 * range. Setting it on a none PTE of shmem leaves a marker. mmap_lock
 * held (for reading at least); it takes the PTE locks.
 */
void uffd_wp_range(struct vm_area_struct *vma, unsigned long start,
		   unsigned long len, bool enable_wp);

/* A registered mapping of shmem (MAP_SHARED anonymous memory, memfd),
 * whose faults look at the file, not the PTE. */
bool vma_is_shmem(const struct vm_area_struct *vma);
/*
 * shmem's part of the fault path (Linux's shmem_get_folio_gfp checks):
 * a registered vma whose page at address is missing from the file
 * (VM_UFFD_MISSING), or is there but not mapped (VM_UFFD_MINOR), is the
 * reader's: VM_FAULT_UFFD_MISSING or _MINOR. 0 if the fault is the page
 * cache's to resolve. PTE lock held.
 */
vm_fault_t shmem_userfault(struct vm_area_struct *vma, unsigned long address);

/* ---- events: fork, mremap, madvise (fs/userfaultfd.c) ------------------ */

/*
 * fork, for each new VMA (a copy of the parent's): without
 * UFFD_FEATURE_EVENT_FORK it is unregistered (and its uffd-wp PTEs,
 * once copied, are cleared by the caller); with it, it moves to a new
 * uffd for the child, one per parent uffd, kept on fcs. 0 or -ENOMEM.
 */
int dup_userfaultfd(struct vm_area_struct *vma, struct list_head *fcs);
/* After the copy: a UFFD_EVENT_FORK to each parent uffd, each waited
 * for until read (the reader gets the child's uffd), or until the uffd
 * is closed or current is killed (the child's VMAs are unregistered). */
void dup_userfaultfd_complete(struct list_head *fcs);
/* The copy failed: the new uffds go, unannounced. */
void dup_userfaultfd_fail(struct list_head *fcs);

/*
 * mremap moves vma: with UFFD_FEATURE_EVENT_REMAP the new VMA stays
 * registered and *ctx is set (the uffd is held until the event); else
 * vma (and so the new VMA) is unregistered, its uffd-wp bits cleared.
 * Then, once moved (to: the new address, or -errno), a UFFD_EVENT_REMAP
 * (from, to, len), waited for until read.
 */
void mremap_userfaultfd_prep(struct vm_area_struct *vma,
			     struct userfaultfd_ctx **ctx);
void mremap_userfaultfd_complete(struct userfaultfd_ctx *ctx,
				 unsigned long from, unsigned long to,
				 unsigned long len);

/* MADV_DONTNEED and MADV_REMOVE of [start, end) in vma: a
 * UFFD_EVENT_REMOVE first, if its uffd asked, waited for until read.
 * False if it slept (the caller looks its VMAs up again). */
bool userfaultfd_remove(struct vm_area_struct *vma, unsigned long start,
			unsigned long end);

#endif
