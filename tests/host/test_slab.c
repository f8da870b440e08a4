/* host-test-sources: mm/slab.c mm/page_alloc.c mm/vmstat.c lib/vsnprintf.c lib/string.c tests/host/harness.c */
/* tests/host/test_slab.c — kmalloc/kfree and kmem_caches over the real buddy
 * allocator on simulated RAM: size classes, page return, BUGs, stress. */
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
#include <zpk/slab.h>
#include <zpk/vmstat.h>

#include "harness.h"

/* 32 MiB of simulated RAM; pfn 0 stays reserved, like the first MiB. */
#define NR_PFNS		8192UL

static unsigned long boot_free;		/* nr_free_pages() after setup */

/* Formats like panic() does, so "%p" prints the same way in both. */
static void format(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
}

/* The BUG message names pointer p (as "(p)": the argument of kfree). */
static void assert_bug_names(const void *p)
{
	char want[40];

	format(want, sizeof(want), "(%p)", p);
	assert_bug_says(want);
}

/* ---- simulated RAM -------------------------------------------------- */

static int group_setup(void **state)
{
	(void)state;
	if (harness_heap_init(NR_PFNS))
		return -1;
	boot_free = nr_free_pages();
	return 0;
}

/* Each test frees all it took: no slab pages, every page free again. */
static int check_all_returned(void **state)
{
	(void)state;
	assert_int_equal(slab_total_pages(), 0);
	assert_int_equal(global_vm_stat(NR_SLAB), 0);
	assert_int_equal(nr_free_pages(), boot_free);
	return 0;
}

static const size_t class_sizes[NR_KMALLOC_CACHES] = {
	8, 16, 32, 64, 128, 256, 512, 1024, 2048
};

static bool all_bytes(const void *p, u8 v, size_t n)
{
	const u8 *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i] != v)
			return false;
	return true;
}

/* ---- size classes ---------------------------------------------------- */

/*
 * For each class: two slabs and a bit of objects, of a size just above
 * the class below; each is aligned to its class, filled with its own
 * byte, and still holds it when all are allocated (so none overlap).
 */
static void test_each_size_class(void **state)
{
	(void)state;
	for (unsigned int c = 0; c < NR_KMALLOC_CACHES; c++) {
		size_t cls = class_sizes[c], size = c ? cls / 2 + 1 : 1;
		struct kmem_cache *cache = kmalloc_slab(size);
		unsigned int n = 2 * (PAGE_SIZE / cls) + 1;
		u8 **objs = calloc(n, sizeof(*objs));

		assert_non_null(objs);
		assert_ptr_equal(cache, kmalloc_slab(cls));
		assert_int_equal(kmem_cache_pages(cache), 0);
		for (unsigned int i = 0; i < n; i++) {
			objs[i] = kmalloc(size, GFP_KERNEL);
			assert_non_null(objs[i]);
			assert_int_equal((uintptr_t)objs[i] % cls, 0);
			assert_int_equal(ksize(objs[i]), cls);
			memset(objs[i], (int)(i + 1), cls);
		}
		assert_int_equal(kmem_cache_pages(cache), 3);
		assert_int_equal(kmem_cache_objs_inuse(cache), n);
		for (unsigned int i = 0; i < n; i++)
			assert_true(all_bytes(objs[i], (u8)(i + 1), cls));
		for (unsigned int i = 0; i < n; i++)
			kfree(objs[i]);
		assert_int_equal(kmem_cache_pages(cache), 0);
		assert_int_equal(kmem_cache_objs_inuse(cache), 0);
		free(objs);
	}
	assert_null(kmalloc_slab(KMALLOC_MAX_CACHE_SIZE + 1));
}

/* Sizes on either side of each boundary land in the right class. */
static void test_size_rounding(void **state)
{
	(void)state;
	assert_ptr_equal(kmalloc_slab(1), kmalloc_slab(8));
	for (unsigned int c = 1; c < NR_KMALLOC_CACHES; c++) {
		assert_ptr_not_equal(kmalloc_slab(class_sizes[c]),
				     kmalloc_slab(class_sizes[c - 1]));
		assert_ptr_equal(kmalloc_slab(class_sizes[c - 1] + 1),
				 kmalloc_slab(class_sizes[c]));
	}
}

/* An object handed out dirty and freed comes back zeroed by kzalloc. */
static void test_kzalloc_zeroes(void **state)
{
	static const size_t sizes[] = { 8, 24, 100, 1000, 2048, 3000, 10000 };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		u8 *keep = kmalloc(sizes[i], GFP_KERNEL);
		u8 *p = kmalloc(sizes[i], GFP_KERNEL), *q;

		memset(p, 0xff, ksize(p));
		kfree(p);
		q = kzalloc(sizes[i], GFP_KERNEL);
		assert_non_null(q);
		if (sizes[i] <= KMALLOC_MAX_CACHE_SIZE)
			assert_ptr_equal(q, p);	/* LIFO: the dirty one */
		assert_true(all_bytes(q, 0, ksize(q)));
		kfree(q);
		kfree(keep);
	}
}

/* Without __GFP_ZERO a fresh object is all poison, link word included. */
static void test_uninitialized_reads_poison(void **state)
{
	u8 *p, *q;

	(void)state;
	p = kmalloc(64, GFP_KERNEL);
	assert_true(all_bytes(p, SLAB_POISON_FREE, 64));
	memset(p, 0, 64);
	q = kmalloc(64, GFP_KERNEL);	/* keeps the slab alive */
	kfree(p);
	p = kmalloc(64, GFP_KERNEL);
	assert_true(all_bytes(p, SLAB_POISON_FREE, 64));
	kfree(p);
	kfree(q);
}

/* ---- pages back to the buddy allocator ------------------------------ */

/* A freed object is the next one handed out, with no new page. */
static void test_free_then_reuse(void **state)
{
	struct kmem_cache *c = kmalloc_slab(128);
	void *a, *b, *b2;

	(void)state;
	a = kmalloc(128, GFP_KERNEL);
	b = kmalloc(128, GFP_KERNEL);
	assert_int_equal(kmem_cache_pages(c), 1);
	kfree(b);
	b2 = kmalloc(100, GFP_KERNEL);
	assert_ptr_equal(b2, b);
	assert_int_equal(kmem_cache_pages(c), 1);
	kfree(a);
	kfree(b2);
}

/* The last free of a slab's objects gives its page back at once. */
static void test_empty_slab_returns_page(void **state)
{
	struct kmem_cache *c = kmalloc_slab(256);
	unsigned long free0 = nr_free_pages();
	unsigned int per = PAGE_SIZE / 256;
	void *objs[PAGE_SIZE / 256 + 1];

	(void)state;
	objs[0] = kmalloc(256, GFP_KERNEL);
	assert_int_equal(nr_free_pages(), free0 - 1);
	assert_int_equal(global_vm_stat(NR_SLAB), 1);
	assert_true(PageSlab(virt_to_page(objs[0])));
	kfree(objs[0]);
	assert_int_equal(nr_free_pages(), free0);
	assert_int_equal(global_vm_stat(NR_SLAB), 0);

	/* Exactly one page full, then one more object needs a second. */
	for (unsigned int i = 0; i < per; i++)
		objs[i] = kmalloc(256, GFP_KERNEL);
	assert_int_equal(kmem_cache_pages(c), 1);
	objs[per] = kmalloc(256, GFP_KERNEL);
	assert_int_equal(kmem_cache_pages(c), 2);
	assert_int_equal(nr_free_pages(), free0 - 2);
	kfree(objs[per]);
	assert_int_equal(kmem_cache_pages(c), 1);
	for (unsigned int i = 0; i < per; i++)
		kfree(objs[i]);
	assert_int_equal(kmem_cache_pages(c), 0);
	assert_int_equal(nr_free_pages(), free0);
}

/* Above 2 KiB whole, page-aligned blocks of the right order. */
static void test_large_allocations(void **state)
{
	static const struct { size_t size; unsigned long pages; } t[] = {
		{ 2049, 1 }, { 4096, 1 }, { 4097, 2 }, { 8192, 2 },
		{ 3 * 4096 + 1, 4 }, { 1 << 20, 256 },
		{ PAGE_SIZE << (MAX_ORDER - 1), MAX_ORDER_NR_PAGES },
	};
	unsigned long free0 = nr_free_pages();

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		u8 *p = kmalloc(t[i].size, GFP_KERNEL);

		assert_non_null(p);
		assert_int_equal((uintptr_t)p % PAGE_SIZE, 0);
		assert_int_equal(ksize(p), t[i].pages * PAGE_SIZE);
		assert_int_equal(nr_free_pages(), free0 - t[i].pages);
		assert_int_equal(slab_total_pages(), t[i].pages);
		assert_int_equal(global_vm_stat(NR_SLAB), t[i].pages);
		memset(p, 0x5a, t[i].size);
		kfree(p);
		assert_int_equal(nr_free_pages(), free0);
	}
	/* Beyond the buddy's largest block: NULL, nothing taken. */
	assert_null(kmalloc((PAGE_SIZE << (MAX_ORDER - 1)) + 1, GFP_KERNEL));
	assert_null(kmalloc(SIZE_MAX, GFP_KERNEL));
	assert_int_equal(nr_free_pages(), free0);
}

/* NULL and kmalloc(0)'s ZERO_SIZE_PTR are accepted and cost nothing. */
static void test_null_and_zero_size(void **state)
{
	void *p;

	(void)state;
	kfree(NULL);
	p = kmalloc(0, GFP_KERNEL);
	assert_ptr_equal(p, ZERO_SIZE_PTR);
	assert_int_equal(ksize(p), 0);
	kfree(p);
	assert_int_equal(slab_total_pages(), 0);
}

/* When the buddy allocator is empty kmalloc fails cleanly, then recovers. */
static void test_out_of_memory(void **state)
{
	unsigned long n = 0, free0 = nr_free_pages();
	struct page **pages = calloc(free0 + 1, sizeof(*pages));
	void *p;

	(void)state;
	assert_non_null(pages);
	while ((pages[n] = alloc_page(GFP_KERNEL)))
		n++;
	assert_int_equal(n, free0);
	assert_null(kmalloc(64, GFP_KERNEL));
	assert_null(kzalloc(5000, GFP_KERNEL));
	assert_int_equal(slab_total_pages(), 0);
	__free_page(pages[--n]);
	p = kmalloc(64, GFP_KERNEL);
	assert_non_null(p);
	kfree(p);
	while (n)
		__free_page(pages[--n]);
	free(pages);
}

/* ---- kfree of what kmalloc did not return: BUG, naming it ----------- */

static int some_global;

static void test_kfree_foreign_pointer_bugs(void **state)
{
	char on_stack[32];
	struct page *page = alloc_page(GFP_KERNEL);

	(void)state;
	expect_bug(kfree(on_stack));
	assert_bug_names(on_stack);
	assert_bug_says("not a kmalloc pointer");
	expect_bug(kfree(&some_global));
	assert_bug_names(&some_global);
	/* In RAM, but a page of the buddy allocator, not of slab. */
	expect_bug(kfree(page_address(page)));
	assert_bug_names(page_address(page));
	assert_bug_says("not a slab page");
	expect_bug(ksize(on_stack));
	assert_bug_names(on_stack);
	__free_page(page);
}

static void test_kfree_interior_pointer_bugs(void **state)
{
	char *p = kmalloc(64, GFP_KERNEL), *big = kmalloc(9000, GFP_KERNEL);

	(void)state;
	expect_bug(kfree(p + 8));
	assert_bug_names(p + 8);
	assert_bug_says("not the start of a kmalloc-64 object");
	expect_bug(kfree(p + 63));
	assert_bug_names(p + 63);
	expect_bug(kfree(big + 100));
	assert_bug_names(big + 100);
	assert_bug_says("kmalloc-large");
	/* Nothing changed: both still free normally. */
	kfree(p);
	kfree(big);
}

static void test_double_free_bugs(void **state)
{
	char *keep = kmalloc(32, GFP_KERNEL), *p = kmalloc(32, GFP_KERNEL);
	char *alone, *big;

	(void)state;
	kfree(p);
	expect_bug(kfree(p));
	assert_bug_names(p);
	assert_bug_says("double free of a kmalloc-32 object");
	/* The head of the freelist is not the only one found. */
	kfree(keep);		/* the slab is gone now; start again */
	keep = kmalloc(32, GFP_KERNEL);
	p = kmalloc(32, GFP_KERNEL);
	alone = kmalloc(32, GFP_KERNEL);
	kfree(p);
	kfree(alone);
	expect_bug(kfree(p));
	assert_bug_names(p);
	kfree(keep);

	/* Its slab went back to the buddy: the page is no slab now. */
	alone = kmalloc(512, GFP_KERNEL);
	kfree(alone);
	expect_bug(kfree(alone));
	assert_bug_names(alone);
	assert_bug_says("not a slab page");

	big = kmalloc(5000, GFP_KERNEL);
	kfree(big);
	expect_bug(kfree(big));
	assert_bug_names(big);
}

/* A write into a free object is caught when it is next handed out. */
static void test_use_after_free_caught(void **state)
{
	u8 *keep = kmalloc(128, GFP_KERNEL), *p = kmalloc(128, GFP_KERNEL);

	(void)state;
	kfree(p);
	p[100] = 1;
	expect_bug(kmalloc(128, GFP_KERNEL));
	assert_bug_says("use after free");
	assert_bug_says("offset 0x64");
	p[100] = SLAB_POISON_FREE;	/* repair, so the slab can be freed */
	p = kmalloc(128, GFP_KERNEL);
	kfree(p);
	kfree(keep);
}

/* ---- kmem_cache_create ------------------------------------------------ */

struct thing {
	u64 a, b;
	u32 c;
};

static void test_kmem_cache_custom(void **state)
{
	struct kmem_cache *c = kmem_cache_create("thing", sizeof(struct thing),
						 0);
	struct kmem_cache *al = kmem_cache_create("aligned", 100, 64);
	struct thing *t[200];
	char *tail;
	void *a;

	(void)state;
	assert_non_null(c);
	assert_non_null(al);
	assert_int_equal(c->size, 24);
	assert_int_equal(c->objs_per_slab, PAGE_SIZE / 24);
	assert_int_equal(al->size, 128);
	for (unsigned int i = 0; i < ARRAY_SIZE(t); i++) {
		gfp_t gfp = i & 1 ? GFP_KERNEL | __GFP_ZERO : GFP_KERNEL;

		t[i] = kmem_cache_alloc(c, gfp);
		assert_non_null(t[i]);
		assert_int_equal((uintptr_t)t[i] % 8, 0);
		if (i & 1)
			assert_true(all_bytes(t[i], 0, sizeof(*t[i])));
		t[i]->a = i;
		t[i]->c = i;
	}
	assert_int_equal(kmem_cache_pages(c), 2);	/* 170 per page */
	for (unsigned int i = 0; i < ARRAY_SIZE(t); i++)
		assert_true(t[i]->a == i && t[i]->c == i);
	/* kfree works on any cache's objects, interior pointers still BUG. */
	expect_bug(kfree((char *)t[3] + 8));
	assert_bug_names((char *)t[3] + 8);
	assert_bug_says("thing");
	/* 170 objects of 24 B leave a 16-byte tail that is no object. */
	tail = (char *)t[0] - (uintptr_t)t[0] % PAGE_SIZE + 170 * 24;
	expect_bug(kfree(tail));
	assert_bug_names(tail);
	a = kmem_cache_alloc(al, GFP_KERNEL);
	assert_int_equal((uintptr_t)a % 64, 0);
	expect_bug(kmem_cache_free(c, a));
	assert_bug_says("belongs to aligned");
	expect_bug(kmem_cache_destroy(c));
	assert_bug_says("200 objects still in use");
	for (unsigned int i = 0; i < ARRAY_SIZE(t); i++) {
		if (i & 1)
			kfree(t[i]);
		else
			kmem_cache_free(c, t[i]);
	}
	kmem_cache_free(al, a);
	assert_int_equal(kmem_cache_pages(c), 0);
	kmem_cache_destroy(c);
	kmem_cache_destroy(al);
}

static void test_kmem_cache_create_rejects(void **state)
{
	struct kmem_cache *c;

	(void)state;
	assert_null(kmem_cache_create("zero", 0, 0));
	assert_null(kmem_cache_create("odd-align", 16, 24));
	assert_null(kmem_cache_create("huge", PAGE_SIZE + 1, 0));
	/* One object per page is the limit; it still works. */
	c = kmem_cache_create("page", PAGE_SIZE, PAGE_SIZE);
	assert_non_null(c);
	assert_int_equal(c->objs_per_slab, 1);
	kmem_cache_free(c, kmem_cache_alloc(c, GFP_KERNEL));
	assert_int_equal(kmem_cache_pages(c), 0);
	kmem_cache_destroy(c);
	/* kmalloc's own caches cannot be destroyed. */
	expect_bug(kmem_cache_destroy(kmalloc_slab(64)));
}

/* ---- counters ----------------------------------------------------------- */

static void test_stats_and_nr_slab(void **state)
{
	void *small[40], *big = kmalloc(20000, GFP_KERNEL);

	(void)state;
	for (unsigned int i = 0; i < ARRAY_SIZE(small); i++)
		small[i] = kmalloc(i < 20 ? 64 : 1024, GFP_KERNEL);
	/* 20 x 64 B: 1 page; 20 x 1 KiB: 5 pages; 20000 B: 8 pages. */
	assert_int_equal(kmem_cache_pages(kmalloc_slab(64)), 1);
	assert_int_equal(kmem_cache_pages(kmalloc_slab(1024)), 5);
	assert_int_equal(slab_total_pages(), 14);
	assert_int_equal(global_vm_stat(NR_SLAB), 14);
	harness_log_clear();
	slab_stats_print();
	assert_non_null(strstr(harness_log, "active_objs"));
	assert_non_null(strstr(harness_log, "kmalloc-64 "));
	assert_non_null(strstr(harness_log, "kmalloc-2k"));
	assert_non_null(strstr(harness_log, "kmalloc-large"));
	assert_non_null(strstr(harness_log, "14 pages in all"));
	for (unsigned int i = 0; i < ARRAY_SIZE(small); i++)
		kfree(small[i]);
	kfree(big);
}

/* ---- stress ------------------------------------------------------------- */

static u64 rnd_state;

static u32 rnd(void)
{
	rnd_state = rnd_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (u32)(rnd_state >> 33);
}

/* Mostly small, every class alike; one in 32 large, up to 32 KiB. */
static size_t rnd_size(void)
{
	unsigned int c;

	if (rnd() % 32 == 0)
		return 2049 + rnd() % (32768 - 2048);
	c = rnd() % NR_KMALLOC_CACHES;
	return class_sizes[c] / 2 + 1 + rnd() % (class_sizes[c] / 2);
}

#define NR_SLOTS	1024
#define NR_OPS		100000

static void test_stress_random(void **state)
{
	static struct { u8 *p; size_t size; u8 tag; } slot[NR_SLOTS];
	unsigned long pages0[NR_KMALLOC_CACHES], free0 = nr_free_pages();

	(void)state;
	rnd_state = 42;
	for (unsigned int c = 0; c < NR_KMALLOC_CACHES; c++)
		pages0[c] = kmem_cache_pages(kmalloc_slab(class_sizes[c]));
	for (unsigned long op = 0; op < NR_OPS; op++) {
		unsigned int s = rnd() % NR_SLOTS;

		if (slot[s].p) {
			if (!all_bytes(slot[s].p, slot[s].tag, slot[s].size))
				fail_msg("op %lu: object %p corrupted", op,
					 (void *)slot[s].p);
			kfree(slot[s].p);
			slot[s].p = NULL;
			continue;
		}
		slot[s].size = rnd_size();
		slot[s].tag = (u8)(op | 1);
		slot[s].p = rnd() & 1 ? kzalloc(slot[s].size, GFP_KERNEL) :
					kmalloc(slot[s].size, GFP_KERNEL);
		assert_non_null(slot[s].p);
		assert_true(ksize(slot[s].p) >= slot[s].size);
		assert_int_equal((uintptr_t)slot[s].p %
				 min(ksize(slot[s].p), PAGE_SIZE), 0);
		memset(slot[s].p, slot[s].tag, slot[s].size);
	}
	assert_int_equal(global_vm_stat(NR_SLAB), slab_total_pages());
	for (unsigned int s = 0; s < NR_SLOTS; s++) {
		if (!slot[s].p)
			continue;
		assert_true(all_bytes(slot[s].p, slot[s].tag, slot[s].size));
		kfree(slot[s].p);
		slot[s].p = NULL;
	}
	for (unsigned int c = 0; c < NR_KMALLOC_CACHES; c++) {
		struct kmem_cache *k = kmalloc_slab(class_sizes[c]);

		assert_int_equal(kmem_cache_pages(k), pages0[c]);
		assert_int_equal(kmem_cache_objs_inuse(k), 0);
	}
	assert_int_equal(slab_total_pages(), 0);
	assert_int_equal(nr_free_pages(), free0);
}

#define T(fn) cmocka_unit_test_teardown(fn, check_all_returned)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_each_size_class),
		T(test_size_rounding),
		T(test_kzalloc_zeroes),
		T(test_uninitialized_reads_poison),
		T(test_free_then_reuse),
		T(test_empty_slab_returns_page),
		T(test_large_allocations),
		T(test_null_and_zero_size),
		T(test_out_of_memory),
		T(test_kfree_foreign_pointer_bugs),
		T(test_kfree_interior_pointer_bugs),
		T(test_double_free_bugs),
		T(test_use_after_free_caught),
		T(test_kmem_cache_custom),
		T(test_kmem_cache_create_rejects),
		T(test_stats_and_nr_slab),
		T(test_stress_random),
	};

	return cmocka_run_group_tests(tests, group_setup, harness_heap_free);
}
