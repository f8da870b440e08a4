/* zpk/zero_page.h — the one shared page of zeros and its names (Linux's).
 * zero_pfn is what a zero-page PTE maps; nothing may ever write it. */
#ifndef ZPK_ZERO_PAGE_H
#define ZPK_ZERO_PAGE_H

#include <zpk/mm.h>

extern char empty_zero_page[PAGE_SIZE];
extern unsigned long zero_pfn;

#define ZERO_PAGE(vaddr) ((void)(vaddr), pfn_to_page(zero_pfn))

static inline bool is_zero_pfn(unsigned long pfn)
{
	return pfn == zero_pfn;
}

/*
 * How read faults of untouched private anonymous memory are served, one
 * policy for each era of Linux: special (2.6.32 on: the zero page behind
 * a special PTE, no refcount), refcount (up to 2.6.23: the zero page as a
 * normal page with a shared refcount), off (2.6.24-2.6.31: a fresh page).
 */
enum zero_page_policy { ZERO_PAGE_SPECIAL, ZERO_PAGE_REFCOUNT, ZERO_PAGE_OFF };
extern enum zero_page_policy zero_page_policy;
/* Switches by name ("special", "refcount", "off"; a trailing newline is
 * fine): 0, or -EINVAL. New faults follow it; old PTEs keep their kind. */
int zero_page_set_policy(const char *name);
/* "[special] refcount off\n" with the active one bracketed, into buf. */
int zero_page_policy_show(char *buf, size_t size);

/* The zero page's _refcount: 1 (its own) + the refcounted PTEs. */
int zero_page_refcount(void);
/* /dev/zero's read under zero_page=refcount (2.6.23): [start, end) of a
 * private anonymous vma becomes refcounted zero-page PTEs. 0 or -ENOMEM;
 * mmap_lock held for reading. */
int zeromap_page_range(struct vm_area_struct *vma, unsigned long start,
		       unsigned long end);

/* BUGs, naming the first non-zero byte, unless the page is all zeros. */
void zero_page_verify(void);
/* The same check without the BUG: the offset of a non-zero byte, or -1. */
long zero_page_first_nonzero(void);

#endif
