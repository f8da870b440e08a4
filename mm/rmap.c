/* mm/rmap.c — a page's mappings (Linux's mm/rmap.c, without the reverse
 * map itself: reclaim scans page tables, docs/vm.md "Swap"): _mapcount,
 * PG_anon and PG_anon_exclusive, NR_*_MAPPED. */
#include <zpk/bug.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/swap.h>
#include <zpk/vmstat.h>
#include "internal.h"

/* zpk/memory.h: the counts below are atomic; the caller holds the lock of
 * the PTE it sets or clears. */
void page_add_new_anon_rmap(struct page *page)
{
	atomic_set(&page->_mapcount, 0);
	page_set_flag(page, PG_anon);
	page_set_flag(page, PG_anon_exclusive);
	inc_vm_stat(NR_ANON_PAGES);
}

void page_add_file_rmap(struct page *page)
{
	get_page(page);
	if (atomic_inc_return(&page->_mapcount) == 0)
		inc_vm_stat(NR_FILE_MAPPED);
}

/* One more PTE maps page (fork): an anonymous page is then shared, no
 * longer exclusive to either side (Linux's page_try_dup_anon_rmap). */
void page_dup_rmap(struct page *page)
{
	atomic_inc(&page->_mapcount);
	/* LAB(cow-whole) BEGIN task 1: a page fork shares is no one's alone */
	page_clear_flag(page, PG_anon_exclusive);
	/* LAB(cow-whole) END */
}

/* A page from the swap cache mapped by one PTE more (do_swap_page):
 * exclusive if no one else holds it. swap_cache_lock held, which keeps
 * the _mapcount of a cached page from -1 to 0 in step with PG_anon. */
void page_add_anon_rmap(struct page *page, bool exclusive)
{
	if (atomic_inc_return(&page->_mapcount) == 0) {
		page_set_flag(page, PG_anon);
		inc_vm_stat(NR_ANON_PAGES);
	}
	if (exclusive)
		page_set_flag(page, PG_anon_exclusive);
	else
		page_clear_flag(page, PG_anon_exclusive);
}

/* One PTE less; the last one makes the page unmapped again. The swap
 * cache's pages change under its lock, and leave it when the disk has
 * them and the last PTE goes (swapcache_remove_rmap). */
void page_remove_rmap(struct page *page)
{
	if (unlikely(PageSwapCache(page))) {
		swapcache_remove_rmap(page);
		return;
	}
	__page_remove_rmap(page);
}

void __page_remove_rmap(struct page *page)
{
	if (unlikely(atomic_read(&page->_mapcount) < 0))
		BUGF("page_remove_rmap: pfn %#lx not mapped",
		     page_to_pfn(page));
	if (!atomic_add_negative(-1, &page->_mapcount))
		return;
	if (PageCompound(page)) {
		/* A THP's 4 KiB: still mapped while a PMD maps the THP;
		 * PG_anon is the head's, kept until the THP is freed. */
		page_clear_flag(page, PG_anon_exclusive);
		if (!compound_mapcount(page))
			dec_vm_stat(NR_ANON_PAGES);
		return;
	}
	if (PageAnon(page)) {
		page_clear_flag(page, PG_anon);
		page_clear_flag(page, PG_anon_exclusive);
		dec_vm_stat(NR_ANON_PAGES);
	} else {
		dec_vm_stat(NR_FILE_MAPPED);
	}
}
