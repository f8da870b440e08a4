/* host-test-sources: mm/page_alloc.c mm/vmstat.c lib/vsnprintf.c lib/string.c tests/host/harness.c */
/* tests/host/test_page_alloc.c — the buddy allocator and vmstat on simulated
 * RAM (16 MiB with a reserved hole): split/merge, BUG reports, poisoning. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <zpk/mm.h>
#include <zpk/printk.h>
#include <zpk/vmstat.h>

#include "harness.h"

/*
 * Simulated RAM: pfn 0 is reserved (like the real first MiB), so is the
 * hole [HOLE_START, HOLE_END); the rest goes to the buddy allocator with
 * unaligned ends on both sides of the hole.
 */
#define NR_PFNS		4096UL
#define HOLE_START	1500UL
#define HOLE_END	1600UL
#define RAM_FREE	(NR_PFNS - 1 - (HOLE_END - HOLE_START))

/* Free blocks per order after setup, worked out by hand. */
static const unsigned long boot_blocks[MAX_ORDER] = {
	1, 1, 2, 2, 2, 1, 3, 3, 3, 1, 2
};

/* "pfn 0x5" must not match "pfn 0x5dc": the number has to end there. */
static void assert_bug_names_pfn(unsigned long pfn)
{
	char want[32];
	const char *p;

	snprintf(want, sizeof(want), "pfn %#lx", pfn);
	p = strstr(bug_msg, want);
	if (p)
		p += strlen(want);
	if (!p || (*p && strchr("0123456789abcdef", *p)))
		fail_msg("BUG \"%s\" does not name \"%s\"", bug_msg, want);
}

/* The caller printed is a return address inside the function fn. */
static void assert_bug_blames(void (*fn)(void **))
{
	const char *p = strstr(bug_msg, "caller ");
	unsigned long caller, start = (unsigned long)fn;

	assert_non_null(p);
	caller = strtoul(p + strlen("caller "), NULL, 16);
	if (caller <= start || caller > start + 0x4000)
		fail_msg("BUG \"%s\" blames %#lx, not a caller in %#lx",
			 bug_msg, caller, start);
}

/* ---- fixtures and checks -------------------------------------------- */

static int group_setup(void **state)
{
	(void)state;
	return harness_ram_init(NR_PFNS * PAGE_SIZE);
}

static int group_teardown(void **state)
{
	(void)state;
	harness_ram_free();
	return 0;
}

/* All of mem_map reserved, counters at zero, RAM full of garbage. */
static void reset_ram(void)
{
	/* Through the counters' own API, not their storage: the smp lab's
	 * skeleton keeps them elsewhere. */
	for (int i = 0; i < NR_VM_STAT_ITEMS; i++)
		mod_vm_stat(i, -(long)global_vm_stat(i));
	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		count_vm_events(i, -global_vm_event(i));
	page_poisoning = false;
	bug_expected = false;
	harness_log_clear();
	memset(host_ram_base, 0x5a, NR_PFNS * PAGE_SIZE);
	harness_ram_reset();
}

static int setup_boot_ram(void **state)
{
	(void)state;
	reset_ram();
	free_pfn_range(1, HOLE_START);
	free_pfn_range(HOLE_END, NR_PFNS);
	return 0;
}

/* One free order-10 block, [2048, 3072), and nothing else. */
static void one_big_block(void)
{
	reset_ram();
	free_pfn_range(2048, 3072);
}

static void assert_free_blocks(const unsigned long *want)
{
	for (unsigned int o = 0; o < MAX_ORDER; o++)
		if (nr_free_blocks(o) != want[o])
			fail_msg("order %u: %lu free blocks, want %lu", o,
				 nr_free_blocks(o), want[o]);
}

/*
 * Walks mem_map independently of the free lists: free blocks are aligned,
 * disjoint, have no free buddy of their order (merging is complete), and
 * their counts and page total agree with nr_free_blocks/nr_free_pages.
 */
static void assert_buddy_invariants(void)
{
	unsigned long count[MAX_ORDER] = { 0 }, pages = 0, pfn = 0;

	while (pfn < NR_PFNS) {
		struct page *page = pfn_to_page(pfn);
		unsigned int o = page->order;
		unsigned long buddy = pfn ^ (1UL << o);

		if (!PageBuddy(page)) {
			pfn++;
			continue;
		}
		assert_true(o < MAX_ORDER);
		assert_int_equal(pfn & ((1UL << o) - 1), 0);
		assert_int_equal(page_count(page), 0);
		if (o < MAX_ORDER - 1 && buddy < NR_PFNS &&
		    PageBuddy(pfn_to_page(buddy)))
			assert_int_not_equal(pfn_to_page(buddy)->order, o);
		for (unsigned long i = 1; i < (1UL << o); i++)
			assert_false(PageBuddy(page + i));
		count[o]++;
		pages += 1UL << o;
		pfn += 1UL << o;
	}
	assert_free_blocks(count);
	assert_int_equal(nr_free_pages(), pages);
}

static void assert_nr_free(unsigned long want)
{
	unsigned long sum = 0;

	for (unsigned int o = 0; o < MAX_ORDER; o++)
		sum += nr_free_blocks(o) << o;
	assert_int_equal(nr_free_pages(), want);
	assert_int_equal(global_vm_stat(NR_FREE_PAGES), want);
	assert_int_equal(sum, want);
}

static bool all_bytes(const void *mem, int c, size_t n)
{
	const unsigned char *p = mem;

	for (size_t i = 0; i < n; i++)
		if (p[i] != (unsigned char)c)
			return false;
	return true;
}

/* xorshift64: the same sequence on every libc. */
static unsigned long rng;

static unsigned long rnd(unsigned long n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng % n;
}

struct block {
	struct page *page;
	unsigned int order;
};

/* ---- boot: mem_map_init and free_pfn_range --------------------------- */

static void test_boot_gives_largest_aligned_blocks(void **state)
{
	(void)state;
	assert_free_blocks(boot_blocks);
	assert_nr_free(RAM_FREE);
	assert_buddy_invariants();
	assert_true(PageReserved(pfn_to_page(0)));
	for (unsigned long pfn = HOLE_START; pfn < HOLE_END; pfn++) {
		assert_true(PageReserved(pfn_to_page(pfn)));
		assert_int_equal(page_count(pfn_to_page(pfn)), 1);
		assert_int_equal(page_mapcount(pfn_to_page(pfn)), 0);
	}
	/* The two order-10 blocks are the top 8 MiB. */
	assert_true(PageBuddy(pfn_to_page(2048)));
	assert_int_equal(pfn_to_page(2048)->order, 10);
	assert_int_equal(global_vm_event(PGFREE), 0);
}

static void test_free_pfn_range_unaligned_ends(void **state)
{
	const unsigned long a[MAX_ORDER] = { 2, 0, 1 };	/* 3, 4-7, 8 */
	const unsigned long b[MAX_ORDER] = { 1, 0, 1, 1 }; /* 3, 4-7, 8-15 */
	const unsigned long c[MAX_ORDER] = { [4] = 1 };	/* 0-15 */

	(void)state;
	reset_ram();
	assert_nr_free(0);
	free_pfn_range(3, 9);
	assert_free_blocks(a);
	assert_nr_free(6);
	free_pfn_range(9, 16);		/* merges with pfn 8 across calls */
	assert_free_blocks(b);
	assert_nr_free(13);
	free_pfn_range(0, 3);
	assert_free_blocks(c);
	free_pfn_range(16, 16);
	assert_free_blocks(c);
	assert_buddy_invariants();
	expect_bug(free_pfn_range(5, 6));
	assert_bug_names_pfn(5);
	assert_bug_says("not reserved");
	page_set_flag(pfn_to_page(40), PG_zero);
	expect_bug(free_pfn_range(32, 48));
	assert_bug_names_pfn(40);
	assert_bug_says("the zero page");
}

/* ---- split and merge ------------------------------------------------ */

static void test_split_and_merge_at_every_order(void **state)
{
	(void)state;
	for (unsigned int order = 0; order < MAX_ORDER; order++) {
		unsigned long want[MAX_ORDER] = { 0 };
		struct page *page;

		one_big_block();
		page = alloc_pages(GFP_KERNEL, order);
		assert_non_null(page);
		assert_int_equal(page_to_pfn(page), 2048);
		/* The upper halves are left, one block at each order. */
		for (unsigned int o = order; o < MAX_ORDER - 1; o++) {
			struct page *half = pfn_to_page(2048 + (1UL << o));

			want[o] = 1;
			assert_true(PageBuddy(half));
			assert_int_equal(half->order, o);
		}
		assert_free_blocks(want);
		assert_nr_free(1024 - (1UL << order));
		assert_buddy_invariants();
		__free_pages(page, order);
		memset(want, 0, sizeof(want));
		want[MAX_ORDER - 1] = 1;
		assert_free_blocks(want);
		assert_nr_free(1024);
	}
}

static void test_alloc_state_of_new_block(void **state)
{
	struct page *page;

	(void)state;
	page = alloc_pages(GFP_KERNEL, 3);
	assert_non_null(page);
	assert_int_equal(page_to_pfn(page) & 7, 0);
	for (int i = 0; i < 8; i++) {
		assert_int_equal(page[i].flags, 0);
		assert_int_equal(atomic_read(&page[i]._mapcount), -1);
		assert_int_equal(page_count(&page[i]), i ? 0 : 1);
	}
	assert_int_equal(page->order, 3);
	assert_null(alloc_pages(GFP_KERNEL, MAX_ORDER));
	__free_pages(page, 3);
	assert_free_blocks(boot_blocks);
}

static void test_alloc_every_order_until_exhausted(void **state)
{
	static struct page *got[NR_PFNS];
	static bool used[NR_PFNS];

	(void)state;
	for (unsigned int order = 0; order < MAX_ORDER; order++) {
		unsigned long n = 0, want = 0, left = 0;
		struct page *page;

		setup_boot_ram(NULL);
		memset(used, 0, sizeof(used));
		for (unsigned int o = 0; o < MAX_ORDER; o++) {
			if (o >= order)
				want += boot_blocks[o] << (o - order);
			else
				left += boot_blocks[o] << o;
		}
		while ((page = alloc_pages(GFP_KERNEL, order))) {
			unsigned long pfn = page_to_pfn(page);
			unsigned long end = pfn + (1UL << order);

			assert_int_equal(pfn & ((1UL << order) - 1), 0);
			for (unsigned long i = pfn; i < end; i++) {
				assert_false(used[i]);	/* no overlap */
				assert_false(i == 0 ||
					     (i >= HOLE_START && i < HOLE_END));
				used[i] = true;
			}
			got[n++] = page;
		}
		assert_int_equal(n, want);
		assert_nr_free(left);
		for (unsigned int o = order; o < MAX_ORDER; o++)
			assert_int_equal(nr_free_blocks(o), 0);
		for (unsigned long i = 0; i < n; i++)
			__free_pages(got[i], order);
		assert_free_blocks(boot_blocks);
		assert_nr_free(RAM_FREE);
	}
}

/* Random orders, then frees in a shuffled order, per seed. */
static void test_random_free_order_restores_free_lists(void **state)
{
	static const unsigned long seeds[] = {
		1, 42, 2024, 0xdeadbeef, 0x123456789abcdefUL
	};
	static struct block held[NR_PFNS];

	(void)state;
	for (size_t s = 0; s < ARRAY_SIZE(seeds); s++) {
		unsigned long n = 0, nfree = RAM_FREE;

		setup_boot_ram(NULL);
		rng = seeds[s];
		for (int tries = 0; tries < 600; tries++) {
			unsigned int order = (unsigned int)rnd(6);
			struct page *page = alloc_pages(GFP_KERNEL, order);

			if (!page)
				continue;
			held[n++] = (struct block){ page, order };
			nfree -= 1UL << order;
			assert_nr_free(nfree);
		}
		assert_true(n > 100);
		for (unsigned long i = n - 1; i > 0; i--) {
			unsigned long j = rnd(i + 1);
			struct block t = held[i];

			held[i] = held[j];
			held[j] = t;
		}
		for (unsigned long i = 0; i < n; i++) {
			__free_pages(held[i].page, held[i].order);
			nfree += 1UL << held[i].order;
			assert_nr_free(nfree);
		}
		assert_free_blocks(boot_blocks);
		assert_buddy_invariants();
	}
}

static void test_nr_free_pages_exact_under_random_churn(void **state)
{
	static struct block held[NR_PFNS];
	unsigned long n = 0, nfree = RAM_FREE;

	(void)state;
	rng = 77;
	for (int op = 0; op < 5000; op++) {
		if (n && rnd(10) < 4) {
			unsigned long i = rnd(n);

			__free_pages(held[i].page, held[i].order);
			nfree += 1UL << held[i].order;
			held[i] = held[--n];
		} else {
			unsigned int order = (unsigned int)rnd(7);
			struct page *page = alloc_pages(GFP_KERNEL, order);

			if (page) {
				held[n++] = (struct block){ page, order };
				nfree -= 1UL << order;
			}
		}
		assert_nr_free(nfree);
		if (op % 250 == 0)
			assert_buddy_invariants();
	}
	while (n--)
		__free_pages(held[n].page, held[n].order);
	assert_free_blocks(boot_blocks);
	assert_int_equal(global_vm_event(PGALLOC), global_vm_event(PGFREE));
}

/* ---- freeing rules: BUG with the pfn and the caller ------------------- */

static void test_double_free_bugs_with_pfn(void **state)
{
	struct page *page, *a, *b;

	(void)state;
	page = alloc_page(GFP_KERNEL);		/* pfn 1: buddy 0 reserved */
	assert_int_equal(page_to_pfn(page), 1);
	__free_page(page);
	expect_bug(__free_page(page));
	assert_bug_says("double free");
	assert_bug_names_pfn(1);
	assert_bug_blames(test_double_free_bugs_with_pfn);
	assert_nr_free(RAM_FREE);

	/* Freed again after merging into a bigger block: no PG_buddy. */
	page = alloc_page(GFP_KERNEL);		/* pfn 1 again */
	a = alloc_page(GFP_KERNEL);		/* 2, splitting 2-3 */
	b = alloc_page(GFP_KERNEL);		/* 3 */
	assert_int_equal(page_to_pfn(b), page_to_pfn(a) ^ 1);
	__free_page(a);
	__free_page(b);
	expect_bug(__free_page(b));
	assert_bug_says("_refcount 0");
	assert_bug_names_pfn(page_to_pfn(b));
}

static void test_free_reserved_page_bugs(void **state)
{
	(void)state;
	expect_bug(__free_page(pfn_to_page(HOLE_START + 5)));
	assert_bug_says("reserved");
	assert_bug_names_pfn(HOLE_START + 5);
	assert_bug_blames(test_free_reserved_page_bugs);
}

static void test_free_mapped_page_bugs(void **state)
{
	struct page *page = alloc_page(GFP_KERNEL);

	(void)state;
	atomic_set(&page->_mapcount, 0);	/* one PTE maps it */
	assert_int_equal(page_mapcount(page), 1);
	expect_bug(free_page((unsigned long)page_address(page)));
	assert_bug_says("mapped");
	assert_bug_names_pfn(page_to_pfn(page));
	assert_bug_blames(test_free_mapped_page_bugs);
}

static void test_free_refcount_and_order_rules(void **state)
{
	unsigned long pfn;
	struct page *page;

	(void)state;
	page = alloc_pages(GFP_KERNEL, 2);
	pfn = page_to_pfn(page);
	/* A tail page has no reference of its own. */
	expect_bug(__free_page(page + 1));
	assert_bug_names_pfn(pfn + 1);
	assert_bug_says("_refcount 0");
	/* With two references, __free_pages drops one and frees nothing. */
	get_page(page);
	__free_pages(page, 2);
	assert_int_equal(page_count(page), 1);
	assert_nr_free(RAM_FREE - 4);
	expect_bug(__free_pages(page, 1));
	assert_bug_says("at order 1, allocated at order 2");
	assert_bug_names_pfn(pfn);

	page = alloc_page(GFP_KERNEL);
	page_set_flag(page, PG_slab);
	expect_bug(__free_page(page));
	assert_bug_says("flags");
	assert_bug_names_pfn(page_to_pfn(page));
}

static void test_get_page_on_free_page_bugs(void **state)
{
	struct page *page = alloc_page(GFP_KERNEL);

	(void)state;
	__free_page(page);
	expect_bug(get_page(page));
	assert_bug_names_pfn(page_to_pfn(page));
}

/* ---- refcounts ------------------------------------------------------ */

static void test_last_put_page_frees(void **state)
{
	struct page *page = alloc_page(GFP_KERNEL);

	(void)state;
	assert_int_equal(page_count(page), 1);
	get_page(page);
	page_ref_inc(page);
	page_ref_add(page, 2);
	assert_int_equal(page_count(page), 5);
	for (int i = 0; i < 4; i++) {
		put_page(page);
		assert_false(PageBuddy(page));
		assert_nr_free(RAM_FREE - 1);
	}
	assert_int_equal(page_count(page), 1);
	put_page(page);
	assert_int_equal(page_count(page), 0);
	assert_true(PageBuddy(page));
	assert_nr_free(RAM_FREE);
	assert_free_blocks(boot_blocks);

	page = alloc_page(GFP_KERNEL);
	page_ref_inc(page);
	assert_false(page_ref_dec_and_test(page));
	assert_true(page_ref_dec_and_test(page));
	page_ref_inc(page);	/* give it back so it can be freed */
	__free_page(page);
	assert_nr_free(RAM_FREE);
}

static void test_put_page_frees_at_allocated_order(void **state)
{
	struct page *page = alloc_pages(GFP_KERNEL, 5);

	(void)state;
	assert_nr_free(RAM_FREE - 32);
	put_page(page);
	assert_nr_free(RAM_FREE);
	assert_free_blocks(boot_blocks);
}

/* ---- zeroing -------------------------------------------------------- */

static void test_gfp_zero_returns_zeroed_memory(void **state)
{
	struct page *page;
	unsigned long addr;

	(void)state;
	page = alloc_page(GFP_KERNEL);	/* RAM starts as 0x5a garbage */
	assert_true(all_bytes(page_address(page), 0x5a, PAGE_SIZE));
	assert_int_equal(global_vm_event(PGZERO), 0);
	__free_page(page);

	page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	assert_true(all_bytes(page_address(page), 0, PAGE_SIZE));
	assert_int_equal(global_vm_event(PGZERO), 1);
	__free_page(page);

	page = alloc_pages(GFP_KERNEL | __GFP_ZERO, 3);
	assert_true(all_bytes(page_address(page), 0, 8 * PAGE_SIZE));
	assert_int_equal(global_vm_event(PGZERO), 9);
	__free_pages(page, 3);

	addr = get_zeroed_page(GFP_KERNEL);
	assert_int_not_equal(addr, 0);
	assert_true(all_bytes((void *)addr, 0, PAGE_SIZE));
	assert_int_equal(global_vm_event(PGZERO), 10);
	free_page(addr);
	free_pages(0, 3);		/* like Linux: a no-op */
	assert_nr_free(RAM_FREE);
}

/* ---- poisoning ------------------------------------------------------ */

static void test_poison_detects_write_after_free(void **state)
{
	struct page *page;
	char *va;

	(void)state;
	page_poisoning = true;
	page = alloc_page(GFP_KERNEL);	/* pfn 1, alone on its free list */
	va = page_address(page);
	__free_page(page);
	assert_true(PagePoisoned(page));
	assert_true(all_bytes(va, PAGE_POISON, PAGE_SIZE));
	va[0x123] = 0x42;		/* use after free */
	expect_bug(alloc_page(GFP_KERNEL));
	assert_bug_says("use after free");
	assert_bug_says("offset 0x123");
	assert_bug_names_pfn(1);
}

/* The write lands in a page that was merged, then split at another order. */
static void test_poison_checked_after_merge(void **state)
{
	struct page *a, *b, *c;

	(void)state;
	page_poisoning = true;
	a = alloc_page(GFP_KERNEL);		/* pfn 1 */
	b = alloc_page(GFP_KERNEL);		/* pfn 2 */
	c = alloc_page(GFP_KERNEL);		/* pfn 3 */
	assert_int_equal(page_to_pfn(c), 3);
	__free_page(b);
	__free_page(c);				/* merged: block 2-3 */
	assert_int_equal(nr_free_blocks(1), boot_blocks[1]);
	((char *)page_address(c))[PAGE_SIZE - 1] = 0;
	expect_bug(alloc_pages(GFP_KERNEL, 1));
	assert_bug_names_pfn(3);
	assert_bug_says("offset 0xfff");
	(void)a;
}

static void test_poison_intact_passes(void **state)
{
	struct page *page;

	(void)state;
	page_poisoning = true;
	page = alloc_page(GFP_KERNEL);
	__free_page(page);
	page = alloc_page(GFP_KERNEL);
	assert_false(PagePoisoned(page));
	assert_int_equal(page->flags, 0);
	assert_true(all_bytes(page_address(page), PAGE_POISON, PAGE_SIZE));

	/* Freed while poisoning was off: not poisoned, so not checked. */
	page_poisoning = false;
	__free_page(page);
	assert_false(PagePoisoned(page));
	memset(page_address(page), 0x11, 64);
	page_poisoning = true;
	page = alloc_page(GFP_KERNEL);
	assert_non_null(page);
	__free_page(page);
}

static void test_bad_page_state_at_alloc_bugs(void **state)
{
	struct page *page = alloc_page(GFP_KERNEL);

	(void)state;
	__free_page(page);
	atomic_set(&page->_mapcount, 0);	/* struct page written while free */
	expect_bug(alloc_page(GFP_KERNEL));
	assert_bug_says("bad page state");
	assert_bug_names_pfn(page_to_pfn(page));
}

/* ---- vmstat --------------------------------------------------------- */

static void test_pgalloc_pgfree_count_pages(void **state)
{
	struct page *page;

	(void)state;
	assert_int_equal(global_vm_event(PGALLOC), 0);
	assert_int_equal(global_vm_event(PGFREE), 0);	/* boot: not counted */
	page = alloc_pages(GFP_KERNEL, 3);
	assert_int_equal(global_vm_event(PGALLOC), 8);
	assert_int_equal(global_vm_stat(NR_FREE_PAGES), RAM_FREE - 8);
	__free_pages(page, 3);
	assert_int_equal(global_vm_event(PGFREE), 8);
	assert_int_equal(global_vm_stat(NR_FREE_PAGES), RAM_FREE);
}

static void test_vmstat_names_match_proc_vmstat(void **state)
{
	static const char *const want[] = {
		"nr_free_pages", "nr_page_table_pages",
		"nr_slab_unreclaimable", "nr_anon_pages", "nr_mapped",
		"nr_shmem", "nr_kernel_stack", "nr_anon_transparent_hugepages",
		"pgalloc_normal", "pgfree", "pgzero",
		"pgfault", "pgmajfault", "pswpin", "pswpout",
		"pgscan_kswapd", "pgscan_direct", "pgsteal_kswapd",
		"pgsteal_direct", "cow_fault", "zero_page_map",
		"zero_page_cow", "zero_page_unmap", "zero_page_fork_copy",
		"zero_page_refcount_ops", "nr_tlb_local_flush_all",
		"nr_tlb_local_flush_one", "nr_tlb_remote_flush",
		"nr_tlb_remote_flush_received", "thp_fault_alloc",
		"thp_fault_fallback", "thp_collapse_alloc",
		"thp_collapse_alloc_failed", "thp_split_page", "thp_split_pmd",
		"thp_zero_page_alloc",
		"thp_zero_page_alloc_failed",
	};

	(void)state;
	assert_int_equal(ARRAY_SIZE(want), NR_VMSTAT_ITEMS);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		assert_non_null(vmstat_text[i]);
		assert_string_equal(vmstat_text[i], want[i]);
	}
}

static void test_vmstat_format_lines(void **state)
{
	const char *want =
		"nr_free_pages 3995\n"
		"nr_page_table_pages 0\n"
		"nr_slab_unreclaimable 0\n"
		"nr_anon_pages 1\n"
		"nr_mapped 0\n"
		"nr_shmem 0\n"
		"nr_kernel_stack 4\n"
		"nr_anon_transparent_hugepages 0\n"
		"pgalloc_normal 0\n"
		"pgfree 0\n"
		"pgzero 0\n"
		"pgfault 1\n"
		"pgmajfault 0\n"
		"pswpin 0\n"
		"pswpout 0\n"
		"pgscan_kswapd 0\n"
		"pgscan_direct 0\n"
		"pgsteal_kswapd 0\n"
		"pgsteal_direct 0\n"
		"cow_fault 0\n"
		"zero_page_map 12345678901\n"
		"zero_page_cow 0\n"
		"zero_page_unmap 0\n"
		"zero_page_fork_copy 0\n"
		"zero_page_refcount_ops 1\n"
		"nr_tlb_local_flush_all 0\n"
		"nr_tlb_local_flush_one 0\n"
		"nr_tlb_remote_flush 0\n"
		"nr_tlb_remote_flush_received 0\n"
		"thp_fault_alloc 0\n"
		"thp_fault_fallback 0\n"
		"thp_collapse_alloc 0\n"
		"thp_collapse_alloc_failed 0\n"
		"thp_split_page 0\n"
		"thp_split_pmd 0\n"
		"thp_zero_page_alloc 0\n"
		"thp_zero_page_alloc_failed 0\n";
	char buf[1024], small[20];
	size_t len;

	(void)state;
	inc_vm_stat(NR_ANON_PAGES);
	inc_vm_stat(NR_ANON_PAGES);
	dec_vm_stat(NR_ANON_PAGES);
	mod_vm_stat(NR_KERNEL_STACK, 4);
	count_vm_event(PGFAULT);
	count_vm_events(ZERO_PAGE_MAP, 12345678901UL);
	count_vm_event(ZERO_PAGE_REFCOUNT_OPS);
	assert_int_equal(global_vm_stat(NR_ANON_PAGES), 1);
	len = vmstat_format(buf, sizeof(buf));
	assert_string_equal(buf, want);
	assert_int_equal(len, strlen(want));

	/* Cut short: still NUL-terminated, still the full length back. */
	memset(small, 'x', sizeof(small));
	assert_int_equal(vmstat_format(small, sizeof(small)), strlen(want));
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_memory_equal(small, want, sizeof(small) - 1);
	assert_int_equal(vmstat_format(NULL, 0), strlen(want));

	vmstat_print();
	assert_string_equal(harness_log, want);
}

static void test_buddy_dump_prints_free_lists(void **state)
{
	(void)state;
	buddy_dump();
	assert_string_equal(harness_log,
		"Node 0, zone   Normal"
		"      1      1      2      2      2      1"
		"      3      3      3      1      2\n"
		"buddy: 3995 pages free\n");
}

static void test_address_conversions(void **state)
{
	struct page *page = alloc_pages(GFP_KERNEL, 10);
	unsigned long addr;
	char *va;

	(void)state;
	va = page_address(page);
	assert_ptr_equal(va, host_ram_base + page_to_phys(page));
	assert_ptr_equal(virt_to_page(va), page);
	assert_ptr_equal(virt_to_page(va + 5 * PAGE_SIZE + 17), page + 5);
	assert_int_equal(PHYS_PFN(__pa(va)), page_to_pfn(page));
	assert_ptr_equal(pfn_to_page(page_to_pfn(page)), page);
	assert_true(pfn_valid(NR_PFNS - 1));
	assert_false(pfn_valid(NR_PFNS));
	/* The other order-10 block, then nothing of that size is left. */
	addr = __get_free_pages(GFP_KERNEL, 10);
	assert_int_not_equal(addr, 0);
	assert_int_not_equal(addr, (unsigned long)va);
	assert_int_equal(__pa((void *)addr) & ((PAGE_SIZE << 10) - 1), 0);
	assert_int_equal(__get_free_pages(GFP_KERNEL, 10), 0);
	free_pages(addr, 10);
	__free_pages(page, 10);
	assert_free_blocks(boot_blocks);
}

/* A compound page: tails point at the head, one refcount (the head's,
 * which a tail's get_page/put_page reaches), freed whole by the last
 * put_page of any subpage, tails plain again. */
static void test_compound_page_refcount_and_free(void **state)
{
	struct page *head = alloc_compound_pages(GFP_KERNEL, 9);

	(void)state;
	assert_non_null(head);
	assert_true(PageHead(head));
	assert_false(PageTail(head));
	assert_true(PageTail(head + 1) && PageTail(head + 511));
	assert_ptr_equal(compound_head(head + 300), head);
	assert_int_equal(page_count(head + 300), 1);
	get_page(head + 17);
	assert_int_equal(page_count(head), 2);
	put_page(head + 300);
	assert_int_equal(page_count(head + 1), 1);
	put_page(head + 17);		/* the last: all 512 go */
	assert_false(PageTail(head + 1));
	assert_false(PageHead(head));
	assert_free_blocks(boot_blocks);
}

#define T(fn) cmocka_unit_test_setup(fn, setup_boot_ram)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_boot_gives_largest_aligned_blocks),
		T(test_free_pfn_range_unaligned_ends),
		T(test_split_and_merge_at_every_order),
		T(test_alloc_state_of_new_block),
		T(test_alloc_every_order_until_exhausted),
		T(test_random_free_order_restores_free_lists),
		T(test_nr_free_pages_exact_under_random_churn),
		T(test_double_free_bugs_with_pfn),
		T(test_free_reserved_page_bugs),
		T(test_free_mapped_page_bugs),
		T(test_free_refcount_and_order_rules),
		T(test_get_page_on_free_page_bugs),
		T(test_last_put_page_frees),
		T(test_put_page_frees_at_allocated_order),
		T(test_compound_page_refcount_and_free),
		T(test_gfp_zero_returns_zeroed_memory),
		T(test_poison_detects_write_after_free),
		T(test_poison_checked_after_merge),
		T(test_poison_intact_passes),
		T(test_bad_page_state_at_alloc_bugs),
		T(test_pgalloc_pgfree_count_pages),
		T(test_vmstat_names_match_proc_vmstat),
		T(test_vmstat_format_lines),
		T(test_buddy_dump_prints_free_lists),
		T(test_address_conversions),
	};

	return cmocka_run_group_tests_name("page_alloc", tests, group_setup,
					   group_teardown);
}
