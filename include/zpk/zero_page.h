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

/* Marks the zero page's struct page PG_zero|PG_reserved; after mem_map. */
void zero_page_init(void);
/* BUGs, naming the first non-zero byte, unless the page is all zeros. */
void zero_page_verify(void);
/* The same check without the BUG: the offset of a non-zero byte, or -1. */
long zero_page_first_nonzero(void);

#endif
