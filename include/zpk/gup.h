/* zpk/gup.h — get_user_pages and its flags (Linux's FOLL_*): how kernel
 * code reaches another (or its own) process's pages by page. */
#ifndef ZPK_GUP_H
#define ZPK_GUP_H

#include <zpk/mm_types.h>
#include <zpk/types.h>

#define FOLL_WRITE	0x01	/* the page will be written: fault for write */
#define FOLL_GET	0x04	/* take a reference (put_user_page drops it) */
#define FOLL_FORCE	0x10	/* ignore VM_READ/VM_WRITE (COW a private copy) */
#define FOLL_NOZERO	0x20	/* a real page, never the zero page */

/*
 * Faults in and looks up nr pages from start; with pages, each gets a
 * reference (the zero page only under a refcounted PTE). Returns the
 * number done, or a negative errno if the first failed (-EFAULT: no VMA
 * or not allowed; -ENOMEM). Called with mm's mmap_lock held for reading;
 * it is given up and taken again while a userfault or the OOM killer
 * waits, so the caller's VMAs may be gone when it returns.
 */
long get_user_pages(struct mm_struct *mm, unsigned long start,
		    unsigned long nr, unsigned int flags, struct page **pages);
void put_user_page(struct page *page);
/* A core dump's page at addr of current's mm, with a reference, or NULL
 * for a hole: the zero page or untouched anonymous memory (mm/gup.c). */
struct page *get_dump_page(unsigned long addr);

int mm_populate(struct mm_struct *mm, unsigned long start, unsigned long len);

/* Copies len bytes between buf (kernel) and mm at addr through
 * get_user_pages (FOLL_WRITE: into mm); returns the bytes copied. */
long access_remote_vm(struct mm_struct *mm, unsigned long addr, void *buf,
		      size_t len, unsigned int flags);

#endif
