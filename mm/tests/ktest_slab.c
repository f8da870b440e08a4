/* mm/tests/ktest_slab.c — ktests of kmalloc on the real buddy allocator:
 * each size class, kzalloc, large blocks, and a random stress that must give
 * all back. */
#include <zpk/ktest.h>
#include <zpk/mm.h>
#include <zpk/slab.h>
#include <zpk/string.h>
#include <zpk/vmstat.h>

#include "../internal.h"

static const size_t class_sizes[NR_KMALLOC_CACHES] = {
	8, 16, 32, 64, 128, 256, 512, 1024, 2048
};

/* Are the n bytes at p all v? Word by word: TCG is slow at bytes. */
static bool bytes_are(const void *p, u8 v, size_t n)
{
	const unsigned long *w = p;
	const u8 *b = p;
	unsigned long vw = 0x0101010101010101UL * v;
	size_t i;

	for (i = 0; i + sizeof(long) <= n; i += sizeof(long))
		if (w[i / sizeof(long)] != vw)
			return false;
	for (; i < n; i++)
		if (b[i] != v)
			return false;
	return true;
}

/* Two slabs and one object more of each class: aligned, apart, returned. */
KTEST(slab, each_size_class)
{
	static void *objs[2 * (PAGE_SIZE / 8) + 1];
	unsigned long free0 = nr_free_pages(), slab0 = slab_total_pages();

	for (unsigned int c = 0; c < NR_KMALLOC_CACHES; c++) {
		size_t cls = class_sizes[c], size = c ? cls / 2 + 1 : 1;
		struct kmem_cache *k = kmalloc_slab(size);
		unsigned long pages0 = kmem_cache_pages(k);
		unsigned int n = 2 * (PAGE_SIZE / cls) + 1;
		bool ok = true;

		KEXPECT_TRUE(k == kmalloc_slab(cls));
		for (unsigned int i = 0; i < n; i++) {
			objs[i] = kmalloc(size, GFP_KERNEL);
			KEXPECT_NOT_NULL(objs[i]);
			if (!objs[i])
				return;
			KEXPECT_EQ((unsigned long)objs[i] % cls, 0);
			KEXPECT_EQ(ksize(objs[i]), cls);
			memset(objs[i], (int)(i + 1), cls);
		}
		/* Other users may hold a partial slab, so 2 or 3 new pages. */
		KEXPECT_TRUE(kmem_cache_pages(k) - pages0 >= 2 &&
			     kmem_cache_pages(k) - pages0 <= 3);
		for (unsigned int i = 0; i < n; i++)
			ok &= bytes_are(objs[i], (u8)(i + 1), cls);
		KEXPECT_TRUE(ok);
		for (unsigned int i = 0; i < n; i++)
			kfree(objs[i]);
		KEXPECT_EQ(kmem_cache_pages(k), pages0);
	}
	KEXPECT_EQ(slab_total_pages(), slab0);
	KEXPECT_EQ(nr_free_pages(), free0);
}

KTEST(slab, kzalloc_zeroes)
{
	static const size_t sizes[] = { 8, 24, 100, 1000, 2048, 3000, 10000 };

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		u8 *p = kmalloc(sizes[i], GFP_KERNEL), *q;

		KEXPECT_NOT_NULL(p);
		if (!p)
			return;
		memset(p, 0xff, ksize(p));
		kfree(p);
		q = kzalloc(sizes[i], GFP_KERNEL);
		KEXPECT_NOT_NULL(q);
		if (!q)
			return;
		KEXPECT_TRUE(bytes_are(q, 0, ksize(q)));
		kfree(q);
	}
}

/* Large blocks: page aligned, 1 << order pages out of the buddy and back. */
KTEST(slab, large_takes_and_returns_pages)
{
	unsigned long free0 = nr_free_pages();
	unsigned long nr_slab0 = global_vm_stat(NR_SLAB);
	u8 *p = kmalloc(3 * PAGE_SIZE + 1, GFP_KERNEL);

	KEXPECT_NOT_NULL(p);
	if (!p)
		return;
	KEXPECT_EQ((unsigned long)p % PAGE_SIZE, 0);
	KEXPECT_EQ(ksize(p), 4 * PAGE_SIZE);
	KEXPECT_EQ(nr_free_pages(), free0 - 4);
	KEXPECT_EQ(global_vm_stat(NR_SLAB), nr_slab0 + 4);
	memset(p, 0x5a, 4 * PAGE_SIZE);
	kfree(p);
	KEXPECT_EQ(nr_free_pages(), free0);
	KEXPECT_EQ(global_vm_stat(NR_SLAB), nr_slab0);
	KEXPECT_NULL(kmalloc((PAGE_SIZE << (MAX_ORDER - 1)) + 1, GFP_KERNEL));
}

/* ---- random stress ---------------------------------------------------- */

static u64 lcg_state;

/* Knuth's MMIX LCG; the high bits are the random ones. */
static u32 lcg(void)
{
	lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (u32)(lcg_state >> 33);
}

/* Mostly small, every class alike; one in 32 large, up to 32 KiB. */
static size_t lcg_size(void)
{
	unsigned int c;

	if (lcg() % 32 == 0)
		return 2049 + lcg() % (32768 - 2048);
	c = lcg() % NR_KMALLOC_CACHES;
	return class_sizes[c] / 2 + 1 + lcg() % (class_sizes[c] / 2);
}

#define NR_SLOTS	1024
#define NR_OPS		100000

static struct {
	u8 *p;
	size_t size;
	u8 tag;
} slot[NR_SLOTS];

KTEST(slab, random_stress_returns_every_page)
{
	unsigned long pages0[NR_KMALLOC_CACHES], free0 = nr_free_pages();
	unsigned long slab0 = slab_total_pages(), bad = 0;

	lcg_state = 42;
	for (unsigned int c = 0; c < NR_KMALLOC_CACHES; c++)
		pages0[c] = kmem_cache_pages(kmalloc_slab(class_sizes[c]));
	for (unsigned long op = 0; op < NR_OPS; op++) {
		unsigned int s = lcg() % NR_SLOTS;

		if (slot[s].p) {
			bad += !bytes_are(slot[s].p, slot[s].tag, slot[s].size);
			kfree(slot[s].p);
			slot[s].p = NULL;
			continue;
		}
		slot[s].size = lcg_size();
		slot[s].tag = (u8)(op | 1);
		slot[s].p = lcg() & 1 ? kzalloc(slot[s].size, GFP_KERNEL) :
					kmalloc(slot[s].size, GFP_KERNEL);
		if (!slot[s].p) {
			KEXPECT_NOT_NULL(slot[s].p);
			break;
		}
		bad += ksize(slot[s].p) < slot[s].size;
		bad += (unsigned long)slot[s].p %
		       min(ksize(slot[s].p), PAGE_SIZE) != 0;
		memset(slot[s].p, slot[s].tag, slot[s].size);
	}
	KEXPECT_EQ(global_vm_stat(NR_SLAB), slab_total_pages());
	for (unsigned int s = 0; s < NR_SLOTS; s++) {
		if (!slot[s].p)
			continue;
		bad += !bytes_are(slot[s].p, slot[s].tag, slot[s].size);
		kfree(slot[s].p);
		slot[s].p = NULL;
	}
	KEXPECT_EQ(bad, 0);
	for (unsigned int c = 0; c < NR_KMALLOC_CACHES; c++)
		KEXPECT_EQ(kmem_cache_pages(kmalloc_slab(class_sizes[c])),
			   pages0[c]);
	KEXPECT_EQ(slab_total_pages(), slab0);
	KEXPECT_EQ(nr_free_pages(), free0);
}
