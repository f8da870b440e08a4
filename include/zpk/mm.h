/* zpk/mm.h — mem_map and the buddy page allocator's interface: pfn/page/
 * address conversions, gfp flags, alloc_pages/__free_pages, refcounts. */
#ifndef ZPK_MM_H
#define ZPK_MM_H

#include <asm/page.h>
#include <zpk/bug.h>
#include <zpk/mm_types.h>

/* One struct page per frame, indexed by pfn, 0 .. max_pfn - 1. */
extern struct page *mem_map;
extern unsigned long max_pfn;

static inline struct page *pfn_to_page(unsigned long pfn)
{
	return mem_map + pfn;
}

static inline unsigned long page_to_pfn(const struct page *page)
{
	return (unsigned long)(page - mem_map);
}

static inline bool pfn_valid(unsigned long pfn)
{
	return pfn < max_pfn;
}

static inline phys_addr_t page_to_phys(const struct page *page)
{
	return PFN_PHYS(page_to_pfn(page));
}

/* The page's direct-map address: every frame is mapped there. */
static inline void *page_address(const struct page *page)
{
	return __va(page_to_phys(page));
}

/* addr must be a direct-map (or kernel-image) address. */
static inline struct page *virt_to_page(const void *addr)
{
	return pfn_to_page(PHYS_PFN(__pa(addr)));
}

/* Allocation flags (Linux's gfp_t); GFP_KERNEL may not sleep here yet. */
typedef unsigned int gfp_t;
#define GFP_KERNEL	0u
#define __GFP_ZERO	0x100u	/* clear_page() every page handed out */

#define MAX_ORDER	11	/* orders 0 .. MAX_ORDER - 1: 4 KiB .. 4 MiB */
#define MAX_ORDER_NR_PAGES (1UL << (MAX_ORDER - 1))

#define PAGE_POISON	0xaa	/* freed pages are filled with it (Linux's) */
extern bool page_poisoning;	/* page_poison=1; tests may set it */

/*
 * Every page of map becomes PG_reserved, _refcount 1, _mapcount -1, and the
 * free lists are emptied; sets mem_map and max_pfn. Call once, before any
 * free_pfn_range().
 */
void mem_map_init(struct page *map, unsigned long nr_pfns);
/*
 * Gives the reserved frames [start, end) (end <= max_pfn) to the buddy
 * allocator in the largest naturally aligned blocks, merging with free
 * neighbours. BUGs if one of them is not PG_reserved. Not counted as PGFREE.
 */
void free_pfn_range(unsigned long start, unsigned long end);

/*
 * 2^order contiguous, naturally aligned frames, or NULL if no free block is
 * big enough (or order >= MAX_ORDER). The first page has _refcount 1, the
 * others 0 (as in Linux, the block is freed through its first page); all
 * have _mapcount -1 and flags 0. __GFP_ZERO clears them.
 */
struct page *alloc_pages(gfp_t gfp, unsigned int order);
#define alloc_page(gfp)	alloc_pages(gfp, 0)

/*
 * Drops one reference, as Linux does; at zero the block goes back to the
 * free lists. BUGs, naming the pfn and the caller, if the page is already
 * free or has no reference, and when freeing one that is PG_reserved, still
 * mapped, PG_slab/PG_locked, or was allocated at another order.
 */
void __free_pages(struct page *page, unsigned int order);
#define __free_page(page) __free_pages(page, 0)

/* The same with direct-map addresses; free_pages(0, n) does nothing. */
unsigned long __get_free_pages(gfp_t gfp, unsigned int order);
#define __get_free_page(gfp) __get_free_pages(gfp, 0)
/* One zeroed page's direct-map address, or 0. */
unsigned long get_zeroed_page(gfp_t gfp);
void free_pages(unsigned long addr, unsigned int order);
#define free_page(addr)	free_pages(addr, 0)

/* Zeroes the 4 KiB page at addr and counts PGZERO. */
void clear_page(void *addr);
/* Copies the 4 KiB page at from to to (page-aligned direct-map addresses). */
void copy_page(void *to, const void *from);

/* Free pages right now, exact (NR_FREE_PAGES). */
unsigned long nr_free_pages(void);
/* Number of free blocks of this order (length of its free list). */
unsigned long nr_free_blocks(unsigned int order);
/* printk's the free blocks per order, like /proc/buddyinfo. */
void buddy_dump(void);

/* Reference counts. Single CPU, no interrupts allocate: plain ints. */
static inline int page_count(const struct page *page)
{
	return page->_refcount;
}

static inline void page_ref_inc(struct page *page)
{
	page->_refcount++;
}

static inline void page_ref_add(struct page *page, int nr)
{
	page->_refcount += nr;
}

/* True if this dropped the last reference. */
static inline bool page_ref_dec_and_test(struct page *page)
{
	return --page->_refcount == 0;
}

/* Number of PTEs mapping the page (_mapcount counts from -1). */
static inline int page_mapcount(const struct page *page)
{
	return page->_mapcount + 1;
}

/* page must already hold a reference: taking one on a free page BUGs. */
static inline void get_page(struct page *page)
{
	if (unlikely(page->_refcount <= 0))
		BUGF("get_page on pfn %#lx with _refcount %d",
		     page_to_pfn(page), page->_refcount);
	page_ref_inc(page);
}

/*
 * Drops a reference; the last one frees the page at the order recorded
 * when it was allocated (Linux needs a compound page for that; here the
 * first page of every block knows its order). Same BUGs as __free_pages.
 */
void put_page(struct page *page);

#endif
