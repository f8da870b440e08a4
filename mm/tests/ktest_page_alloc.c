/* mm/tests/ktest_page_alloc.c — ktests of the buddy allocator on real RAM:
 * exhaustion and exact recovery, zeroing, refcounts, alignment, poisoning. */
#include <zpk/ktest.h>
#include <zpk/mm.h>
#include <zpk/sprintf.h>
#include <zpk/string.h>
#include <zpk/vmstat.h>
#include "../internal.h"

/*
 * Takes every free order-0 page, threading them through page->lru (there is
 * no other memory to keep them in). Returns how many; the first taken is
 * last in the list. Poisoning is switched off meanwhile by the callers:
 * with it, emptying and refilling all of a 6 GiB guest would write and read
 * 12 GiB under TCG.
 */
static unsigned long alloc_all(struct list_head *list)
{
	unsigned long n = 0;
	struct page *page;

	while ((page = alloc_page(GFP_KERNEL))) {
		list_add(&page->lru, list);
		n++;
	}
	return n;
}

static void free_all(struct list_head *list)
{
	struct page *page, *next;

	list_for_each_entry_safe(page, next, list, lru) {
		list_del(&page->lru);
		__free_page(page);
	}
}

KTEST(page_alloc, exhaust_order0_then_free_all)
{
	unsigned long before = nr_free_pages(), blocks[MAX_ORDER], n;
	bool poison = page_poisoning;
	LIST_HEAD(pages);

	drain_all_pages();	/* every free page in the buddy */
	for (unsigned int o = 0; o < MAX_ORDER; o++)
		blocks[o] = nr_free_blocks(o);
	page_poisoning = false;
	n = alloc_all(&pages);
	KEXPECT_EQ(n, before);
	KEXPECT_EQ(nr_free_pages(), 0);
	KEXPECT_NULL(alloc_pages(GFP_KERNEL, 0));
	free_all(&pages);
	page_poisoning = poison;
	KEXPECT_EQ(nr_free_pages(), before);
	KEXPECT_EQ(global_vm_stat(NR_FREE_PAGES), before);
	/* Merging is complete, so the free lists come back exactly. */
	drain_all_pages();
	for (unsigned int o = 0; o < MAX_ORDER; o++)
		KEXPECT_EQ(nr_free_blocks(o), blocks[o]);
}

/* virt -> phys -> page -> virt, and the frame really is mapped there. */
static void expect_round_trip(struct page *page)
{
	u8 *va = page_address(page);
	phys_addr_t pa = __pa(va);

	KEXPECT_EQ((unsigned long)va, PAGE_OFFSET + page_to_phys(page));
	KEXPECT_EQ(PHYS_PFN(pa), page_to_pfn(page));
	KEXPECT_TRUE(pfn_valid(PHYS_PFN(pa)));
	KEXPECT_EQ((unsigned long)virt_to_page(va), (unsigned long)page);
	KEXPECT_EQ((unsigned long)virt_to_page(va + PAGE_SIZE - 1),
		   (unsigned long)page);
	KEXPECT_EQ((unsigned long)__va(pa), (unsigned long)va);
	va[0] = 0x5a;
	va[PAGE_SIZE - 1] = 0xa5;
	KEXPECT_EQ(va[0], 0x5a);
	KEXPECT_EQ(va[PAGE_SIZE - 1], 0xa5);
}

KTEST(page_alloc, direct_map_round_trip_first_middle_last)
{
	bool poison = page_poisoning;
	struct list_head *pos;
	unsigned long n, i = 0;
	LIST_HEAD(pages);

	page_poisoning = false;
	n = alloc_all(&pages);
	KEXPECT_TRUE(n > 2);
	if (n > 2) {
		/* The list runs from the last page handed out to the first. */
		expect_round_trip(list_first_entry(&pages, struct page, lru));
		list_for_each(pos, &pages)
			if (i++ == n / 2)
				expect_round_trip(list_entry(pos, struct page,
							     lru));
		expect_round_trip(list_entry(pages.prev, struct page, lru));
	}
	free_all(&pages);
	page_poisoning = poison;
}

KTEST(page_alloc, gfp_zero_pages_read_zero)
{
	unsigned long zeroed = global_vm_event(PGZERO);
	struct page *page;
	bool all_zero;

	for (int i = 0; i < 8; i++) {
		/* Dirty a page and free it: LIFO lists hand it back next. */
		page = alloc_page(GFP_KERNEL);
		KEXPECT_NOT_NULL(page);
		if (!page)
			return;
		memset(page_address(page), 0x5a, PAGE_SIZE);
		__free_page(page);
		page = alloc_page(GFP_KERNEL | __GFP_ZERO);
		KEXPECT_NOT_NULL(page);
		if (!page)
			return;
		KEXPECT_EQ(global_vm_event(PGZERO), zeroed + i + 1);
		all_zero = true;
		for (unsigned long b = 0; b < PAGE_SIZE; b++)
			if (((u8 *)page_address(page))[b])
				all_zero = false;
		KEXPECT_TRUE(all_zero);
		__free_page(page);
	}
}

KTEST(page_alloc, gfp_zero_higher_order_counts_each_page)
{
	unsigned long zeroed = global_vm_event(PGZERO);
	struct page *page = alloc_pages(GFP_KERNEL | __GFP_ZERO, 3);
	const u64 *w;
	bool all_zero = true;

	KEXPECT_NOT_NULL(page);
	if (!page)
		return;
	KEXPECT_EQ(global_vm_event(PGZERO), zeroed + 8);
	w = page_address(page);
	for (unsigned long i = 0; i < 8 * PAGE_SIZE / 8; i++)
		if (w[i])
			all_zero = false;
	KEXPECT_TRUE(all_zero);
	__free_pages(page, 3);
}

KTEST(page_alloc, get_zeroed_page_is_direct_mapped)
{
	unsigned long addr = get_zeroed_page(GFP_KERNEL);

	KEXPECT_NE(addr, 0);
	if (!addr)
		return;
	KEXPECT_TRUE(addr >= PAGE_OFFSET);
	KEXPECT_EQ(addr & (PAGE_SIZE - 1), 0);
	KEXPECT_EQ(*(u64 *)addr, 0);
	KEXPECT_EQ(page_count(virt_to_page((void *)addr)), 1);
	free_page(addr);
}

KTEST(page_alloc, refcount_rules)
{
	unsigned long before = nr_free_pages();
	struct page *page = alloc_page(GFP_KERNEL);

	KEXPECT_NOT_NULL(page);
	if (!page)
		return;
	KEXPECT_EQ(page_count(page), 1);
	KEXPECT_EQ(page_mapcount(page), 0);
	KEXPECT_EQ(page->flags, 0);
	KEXPECT_EQ(nr_free_pages(), before - 1);
	get_page(page);
	page_ref_add(page, 2);
	KEXPECT_EQ(page_count(page), 4);
	put_page(page);
	put_page(page);
	__free_page(page);	/* drops a reference, like put_page */
	KEXPECT_EQ(page_count(page), 1);
	KEXPECT_FALSE(PageBuddy(page));
	KEXPECT_EQ(nr_free_pages(), before - 1);
	put_page(page);		/* the last reference frees it */
	KEXPECT_EQ(page_count(page), 0);
	KEXPECT_EQ(nr_free_pages(), before);
}

KTEST(page_alloc, put_page_frees_whole_block)
{
	unsigned long before = nr_free_pages();
	struct page *page = alloc_pages(GFP_KERNEL, 2);

	KEXPECT_NOT_NULL(page);
	if (!page)
		return;
	KEXPECT_EQ(page_count(page), 1);
	KEXPECT_EQ(page_count(page + 1), 0);	/* tails: no reference */
	KEXPECT_EQ(nr_free_pages(), before - 4);
	put_page(page);
	KEXPECT_EQ(nr_free_pages(), before);
}

/* Free blocks of order o or more in the buddy (the per-CPU lists drained):
 * whether an allocation of order o can succeed. */
static unsigned long free_blocks_from(unsigned int o)
{
	unsigned long n = 0;

	drain_all_pages();
	for (; o < MAX_ORDER; o++)
		n += nr_free_blocks(o);
	return n;
}

/* Each order at once, while a block is there for it (a small machine's
 * initrd may leave no free 4 MiB block): naturally aligned, and NULL
 * only when no block of that order or more is free. */
KTEST(page_alloc, higher_orders_naturally_aligned)
{
	unsigned long before = nr_free_pages();
	struct page *pages[MAX_ORDER];

	for (unsigned int o = 0; o < MAX_ORDER; o++) {
		bool room = free_blocks_from(o) > 0;
		unsigned long pfn;

		pages[o] = alloc_pages(GFP_KERNEL, o);
		KEXPECT_EQ(pages[o] != NULL, room);
		if (!pages[o])
			continue;
		pfn = page_to_pfn(pages[o]);
		KEXPECT_EQ(pfn & ((1UL << o) - 1), 0);
		KEXPECT_EQ(page_to_phys(pages[o]) & ((PAGE_SIZE << o) - 1), 0);
		KEXPECT_TRUE(pfn + (1UL << o) <= max_pfn);
	}
	KEXPECT_NULL(alloc_pages(GFP_KERNEL, MAX_ORDER));
	for (unsigned int o = 0; o < MAX_ORDER; o++)
		if (pages[o])
			__free_pages(pages[o], o);
	KEXPECT_EQ(nr_free_pages(), before);
}

KTEST(page_alloc, pgalloc_pgfree_count_pages)
{
	unsigned long a = global_vm_event(PGALLOC);
	unsigned long f = global_vm_event(PGFREE);
	struct page *page = alloc_pages(GFP_KERNEL, 4);

	KEXPECT_NOT_NULL(page);
	if (!page)
		return;
	KEXPECT_EQ(global_vm_event(PGALLOC), a + 16);
	__free_pages(page, 4);
	KEXPECT_EQ(global_vm_event(PGFREE), f + 16);
}

KTEST(page_alloc, poison_fills_freed_page)
{
	bool poison = page_poisoning;
	struct page *page = alloc_page(GFP_KERNEL);
	u8 *va;
	bool intact = true;

	KEXPECT_NOT_NULL(page);
	if (!page)
		return;
	va = page_address(page);
	page_poisoning = true;
	memset(va, 0x11, PAGE_SIZE);
	__free_page(page);
	/* Reading freed memory on purpose: it must be all PAGE_POISON. */
	KEXPECT_TRUE(PagePoisoned(page));
	for (unsigned long b = 0; b < PAGE_SIZE; b++)
		if (va[b] != PAGE_POISON)
			intact = false;
	KEXPECT_TRUE(intact);
	/* Intact poison passes the allocation check (a BUG would panic). */
	page = alloc_page(GFP_KERNEL);
	KEXPECT_NOT_NULL(page);
	if (page) {
		KEXPECT_FALSE(PagePoisoned(page));
		__free_page(page);
	}
	page_poisoning = poison;
}

KTEST(page_alloc, vmstat_reports_free_pages)
{
	static char buf[1024], want[64];
	size_t len = vmstat_format(buf, sizeof(buf));

	KEXPECT_TRUE(len < sizeof(buf));
	KEXPECT_EQ(len, strlen(buf));
	snprintf(want, sizeof(want), "nr_free_pages %lu\n", nr_free_pages());
	KEXPECT_STRSTR(buf, want);
	KEXPECT_STRSTR(buf, "\npgalloc_normal ");
	KEXPECT_STRSTR(buf, "\nzero_page_refcount_ops ");
}
