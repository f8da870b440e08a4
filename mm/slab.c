/* mm/slab.c — the slab allocator: kmem_caches of one-page slabs, kmalloc.
 * Owns PG_slab pages from alloc_page until they go back to the buddy. */
#include <zpk/bug.h>
#include <zpk/errno.h>
#include <zpk/mm.h>
#include <zpk/printk.h>
#include <zpk/slab.h>
#include <zpk/string.h>
#include <zpk/vmstat.h>

#include "internal.h"

/*
 * A slab is one page. Its free objects form a list threaded through the
 * objects themselves: the first word of a free object points to the next
 * one (page->freelist is the head); page->inuse counts the others.
 * A free object is otherwise filled with SLAB_POISON_FREE, which alloc
 * checks, so a write after free is caught at the next allocation.
 *
 * Each slab belongs to one CPU (page->slab_cpu: the one that made it, or
 * that took it partial from another with none of its own), and each
 * CPU allocates from its own (struct kmem_cache_cpu: its slab and its
 * list of partial ones), as Linux's SLUB does with its per-CPU slab and
 * partial lists: objects of one CPU share no line with another's and no
 * shared lock is taken. An object freed on another CPU goes back to its
 * slab under the owner's lock. A slab whose last object is freed goes
 * back to the page allocator at once (to the CPU's page list), so pages
 * in use return exactly to where they were once all objects are freed,
 * which the tests check.
 *
 * Locks: a CPU's slab lock, then zone_lock; the table of caches has
 * slab_caches_lock. Nothing allocates in interrupt handlers.
 */

#define KMEM_CACHE_MAX	32

/* Static, so creating a cache never needs an allocator (no chicken-egg). */
static struct kmem_cache kmem_caches[KMEM_CACHE_MAX];
/* Protects the table's slots (name NULL: free). */
static DEFINE_SPINLOCK(slab_caches_lock);
static struct kmem_cache *kmalloc_caches[NR_KMALLOC_CACHES];
static const char *const kmalloc_names[NR_KMALLOC_CACHES] = {
	"kmalloc-8", "kmalloc-16", "kmalloc-32", "kmalloc-64", "kmalloc-128",
	"kmalloc-256", "kmalloc-512", "kmalloc-1k", "kmalloc-2k",
};

/*
 * Requests above 2 KiB take 1 << order whole pages. Their head page is
 * marked PG_slab with this pseudo-cache (the buddy keeps the order in
 * page->order), so kfree and ksize tell them from slabs; its CPUs'
 * counts are their totals.
 */
static struct kmem_cache kmalloc_large = {
	.name = "kmalloc-large",
};

static bool is_pow2(size_t x)
{
	return x && !(x & (x - 1));
}

struct kmem_cache *kmem_cache_create(const char *name, size_t size,
				     size_t align)
{
	struct kmem_cache *c;

	if (!align)
		align = sizeof(void *);
	if (!is_pow2(align) || align > PAGE_SIZE || !size || size > PAGE_SIZE)
		return NULL;
	/* A free object must hold the freelist pointer. */
	align = max(align, sizeof(void *));
	spin_lock(&slab_caches_lock);
	for (c = kmem_caches; c < kmem_caches + KMEM_CACHE_MAX; c++)
		if (!c->name)
			break;
	if (c < kmem_caches + KMEM_CACHE_MAX)
		c->name = name ? name : "unnamed";
	spin_unlock(&slab_caches_lock);
	if (c == kmem_caches + KMEM_CACHE_MAX)
		return NULL;
	c->size = ALIGN_UP(size, align);
	c->align = align;
	c->objs_per_slab = PAGE_SIZE / c->size;
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct kmem_cache_cpu *s = &c->cpu_slab[cpu];

		spin_lock_init(&s->lock);
		s->page = NULL;
		INIT_LIST_HEAD(&s->partial);
		s->objs = s->pages = 0;
	}
	return c;
}

void kmem_cache_destroy(struct kmem_cache *c)
{
	if (!c)
		return;
	if (kmem_cache_objs_inuse(c))
		BUGF("kmem_cache_destroy(%s): %lu objects still in use",
		     c->name, kmem_cache_objs_inuse(c));
	for (unsigned int i = 0; i < NR_KMALLOC_CACHES; i++)
		BUG_ON(c == kmalloc_caches[i]);
	/* Empty slabs were freed at once, so no pages remain. */
	BUG_ON(kmem_cache_pages(c));
	spin_lock(&slab_caches_lock);
	c->name = NULL;
	spin_unlock(&slab_caches_lock);
}

/* This CPU's part of c. Stable while the caller does not sleep. */
static struct kmem_cache_cpu *this_cpu_slab(struct kmem_cache *c)
{
	return &c->cpu_slab[smp_processor_id()];
}

static void *obj_at(struct kmem_cache *c, struct page *page, unsigned int i)
{
	return (char *)page_address(page) + (size_t)i * c->size;
}

/* Is p the start of one of the slab's objects? (Unsigned: below is far.) */
static bool on_boundary(struct kmem_cache *c, struct page *page, const void *p)
{
	unsigned long off = (unsigned long)p -
			    (unsigned long)page_address(page);

	return off % c->size == 0 && off / c->size < c->objs_per_slab;
}

/*
 * A fresh slab made of page (spare's, or else the buddy's, atomic: the
 * CPU's slab lock is held), poisoned, with every object on its freelist
 * in address order; not on a list yet. *spare is taken. NULL if the
 * buddy has no page.
 */
static struct page *new_slab(struct kmem_cache *c, struct page **spare)
{
	struct page *page = *spare;
	void **obj;

	if (page)
		*spare = NULL;
	else if (!(page = alloc_page(__GFP_ATOMIC)))
		return NULL;
	memset(page_address(page), SLAB_POISON_FREE, PAGE_SIZE);
	for (unsigned int i = 0; i + 1 < c->objs_per_slab; i++) {
		obj = obj_at(c, page, i);
		*obj = obj_at(c, page, i + 1);
	}
	obj = obj_at(c, page, c->objs_per_slab - 1);
	*obj = NULL;
	page_set_flag(page, PG_slab);
	page->slab_cache = c;
	page->freelist = page_address(page);
	page->inuse = 0;
	page->slab_cpu = smp_processor_id();
	INIT_LIST_HEAD(&page->lru);
	this_cpu_slab(c)->pages++;
	mod_vm_stat(NR_SLAB, 1);
	return page;
}

/*
 * An empty slab goes straight back to the page allocator, not onto a
 * list of spares (see the top of this file). Its CPU's lock held.
 */
static void discard_slab(struct kmem_cache *c, struct page *page)
{
	list_del(&page->lru);
	page_clear_flag(page, PG_slab);
	page->slab_cache = NULL;
	page->freelist = NULL;
	page->inuse = 0;
	this_cpu_slab(c)->pages--;
	mod_vm_stat(NR_SLAB, -1);
	__free_page(page);
}

#define POISON_WORD	(0x0101010101010101UL * SLAB_POISON_FREE)

/*
 * BUG unless the free object obj still holds its poison past the link.
 * Word by word (objects are 8-byte multiples): this runs on every alloc.
 */
static void check_poison(struct kmem_cache *c, const void *obj)
{
	const unsigned long *w = obj;
	const u8 *b = obj;

	for (size_t i = 1; i < c->size / sizeof(long); i++) {
		if (w[i] == POISON_WORD)
			continue;
		for (i *= sizeof(long); b[i] == SLAB_POISON_FREE; i++)
			;
		BUGF("%s: free object %p written at offset %#lx (%#x, not "
		     "%#x): use after free?", c->name, obj, (unsigned long)i,
		     b[i], SLAB_POISON_FREE);
	}
}

/*
 * A partial slab of another CPU, made s's (SLUB takes one from its
 * node's list), so that a CPU with none of its own fills others' free
 * objects before it takes a new page. The other CPU's lock is only
 * tried: s->lock is held, and that CPU may be doing the same. NULL if
 * none could be had.
 */
static struct page *adopt_partial(struct kmem_cache *c,
				  struct kmem_cache_cpu *s)
{
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct kmem_cache_cpu *o = &c->cpu_slab[cpu];
		struct page *page = NULL;

		if (o == s || list_empty(&o->partial) || !spin_trylock(&o->lock))
			continue;
		if (!list_empty(&o->partial)) {
			page = list_first_entry(&o->partial, struct page, lru);
			list_del_init(&page->lru);
			page->slab_cpu = (int)(s - c->cpu_slab);
		}
		spin_unlock(&o->lock);
		if (page)
			return page;
	}
	return NULL;
}

/*
 * Gives CPU s a slab with a free object: one of its partial slabs,
 * another CPU's, or a new one (of *spare if there is one). Its full slab
 * stays its own, on no list, until a free makes it partial. s->lock
 * held. Returns 0, or -ENOMEM when the page allocator has no page.
 */
static int refill_cpu_slab(struct kmem_cache *c, struct kmem_cache_cpu *s,
			   struct page **spare)
{
	struct page *page;

	s->page = NULL;
	if (!list_empty(&s->partial)) {
		page = list_first_entry(&s->partial, struct page, lru);
		list_del_init(&page->lru);
	} else if (!(page = adopt_partial(c, s))) {
		page = new_slab(c, spare);
		if (!page)
			return -ENOMEM;
	}
	s->page = page;
	return 0;
}

/*
 * An object of c. The slab's page comes from the buddy under the CPU's
 * lock, atomic; when there is none and the caller may sleep, one comes
 * with the lock dropped, where the page allocator may reclaim (SLUB
 * allocates its slabs outside its locks so), and the allocation starts
 * again, maybe on another CPU. NULL: no memory.
 */
void *kmem_cache_alloc(struct kmem_cache *c, gfp_t gfp)
{
	struct kmem_cache_cpu *s;
	struct page *page, *spare = NULL;
	void **obj;

again:
	s = this_cpu_slab(c);
	spin_lock(&s->lock);
	if ((!s->page || !s->page->freelist) &&
	    refill_cpu_slab(c, s, &spare)) {
		spin_unlock(&s->lock);
		if (!alloc_may_reclaim(gfp))
			return NULL;
		spare = alloc_page(GFP_KERNEL);
		if (!spare)
			return NULL;
		goto again;
	}
	page = s->page;
	obj = page->freelist;
	if (*obj && !on_boundary(c, page, *obj))
		BUGF("%s: freelist of object %p corrupted: next is %p",
		     c->name, obj, *obj);
	check_poison(c, obj);
	page->freelist = *obj;
	page->inuse++;
	s->objs++;
	spin_unlock(&s->lock);
	if (spare)	/* another slab had room after all */
		__free_page(spare);
	if (gfp & __GFP_ZERO)
		memset(obj, 0, c->size);
	else
		*obj = (void *)POISON_WORD;
	return obj;
}

/*
 * The slab page holding p, if p lies in RAM on a PG_slab page; else BUG.
 * The RAM check comes first: a stack or image pointer has no struct page.
 */
static struct page *slab_page_of(const void *p, const char *fn)
{
	struct page *page;

	if (PHYS_PFN(__pa(p)) >= max_pfn)
		BUGF("%s(%p): not a kmalloc pointer (outside RAM)", fn, p);
	page = virt_to_page(p);
	if (!PageSlab(page))
		BUGF("%s(%p): not a kmalloc pointer (pfn %#lx is not a slab "
		     "page): freed twice, or never allocated?", fn, p,
		     page_to_pfn(page));
	return page;
}

/*
 * Checks p is an allocated object of c on page; frees it. s is the
 * slab's CPU, its lock held. The slab is that CPU's current one, on its
 * partial list, or full and on no list.
 */
static void slab_free_locked(struct kmem_cache *c, struct kmem_cache_cpu *s,
			     struct page *page, void *p, const char *fn)
{
	void **obj = p;

	if (!on_boundary(c, page, p))
		BUGF("%s(%p): not the start of a %s object", fn, p, c->name);
	/* A walk of at most 512 objects: cheap enough to catch every one. */
	for (void **f = page->freelist; f; f = *f) {
		if (f == obj)
			BUGF("%s(%p): double free of a %s object", fn, p,
			     c->name);
		if (*f && !on_boundary(c, page, *f))
			BUGF("%s: freelist of object %p corrupted: next is %p",
			     c->name, f, *f);
	}
	memset(obj, SLAB_POISON_FREE, c->size);
	*obj = page->freelist;
	page->freelist = obj;
	this_cpu_slab(c)->objs--;
	if (--page->inuse == 0) {
		if (page == s->page)
			s->page = NULL;
		discard_slab(c, page);	/* off the partial list too */
	} else if (!*obj && page != s->page) {	/* it was full */
		list_add(&page->lru, &s->partial);
	}
}

/* Frees p into its slab under the lock of the slab's CPU. A slab changes
 * CPU (adopt_partial) under both CPUs' locks, so a second look at
 * page->slab_cpu under the lock says if it is still the one. */
static void __slab_free(struct kmem_cache *c, struct page *page, void *p,
			const char *fn)
{
	for (;;) {
		int cpu = READ_ONCE(page->slab_cpu);
		struct kmem_cache_cpu *s = &c->cpu_slab[cpu];

		spin_lock(&s->lock);
		if (page->slab_cpu == cpu) {
			slab_free_locked(c, s, page, p, fn);
			spin_unlock(&s->lock);
			return;
		}
		spin_unlock(&s->lock);
	}
}

void kmem_cache_free(struct kmem_cache *c, void *obj)
{
	struct page *page = slab_page_of(obj, "kmem_cache_free");

	if (page->slab_cache != c)
		BUGF("kmem_cache_free(%s, %p): object belongs to %s", c->name,
		     obj, page->slab_cache->name);
	__slab_free(c, page, obj, "kmem_cache_free");
}

void kmalloc_init(void)
{
	BUG_ON(kmalloc_caches[0]);
	for (unsigned int i = 0; i < NR_KMALLOC_CACHES; i++) {
		size_t size = (size_t)KMALLOC_MIN_SIZE << i;

		/* Aligned to their size, as kmalloc promises. */
		kmalloc_caches[i] = kmem_cache_create(kmalloc_names[i], size,
						      size);
		BUG_ON(!kmalloc_caches[i]);
	}
}

struct kmem_cache *kmalloc_slab(size_t size)
{
	unsigned int i;

	if (size > KMALLOC_MAX_CACHE_SIZE)
		return NULL;
	if (!kmalloc_caches[0])
		BUGF("kmalloc(%lu) before kmalloc_init", (unsigned long)size);
	/* Index of the smallest power of two >= size, counted from 8. */
	i = size <= KMALLOC_MIN_SIZE ? 0 :
	    (unsigned int)(64 - __builtin_clzl(size - 1)) - 3;
	return kmalloc_caches[i];
}

/* The buddy order that holds size bytes; size > PAGE_SIZE / 2. */
static unsigned int large_order(size_t size)
{
	unsigned int order = 0;

	while ((PAGE_SIZE << order) < size)
		order++;
	return order;
}

static void *kmalloc_large_alloc(size_t size, gfp_t gfp)
{
	struct page *page;
	unsigned int order;

	if (size > (PAGE_SIZE << (MAX_ORDER - 1)))
		return NULL;
	order = large_order(size);
	page = alloc_pages(gfp, order);
	if (!page)
		return NULL;
	/* alloc_pages put order in page->order; __free_pages checks it. */
	page_set_flag(page, PG_slab);
	page->slab_cache = &kmalloc_large;
	page->freelist = NULL;
	page->inuse = 1;
	this_cpu_slab(&kmalloc_large)->pages += 1L << order;
	this_cpu_slab(&kmalloc_large)->objs++;
	mod_vm_stat(NR_SLAB, 1L << order);
	return page_address(page);
}

static void kmalloc_large_free(struct page *page, const void *p)
{
	unsigned int order = page->order;

	if (p != page_address(page))
		BUGF("kfree(%p): not the start of a kmalloc-large block "
		     "(%p)", p, page_address(page));
	page_clear_flag(page, PG_slab);
	page->slab_cache = NULL;
	page->inuse = 0;
	this_cpu_slab(&kmalloc_large)->pages -= 1L << order;
	this_cpu_slab(&kmalloc_large)->objs--;
	mod_vm_stat(NR_SLAB, -(1L << order));
	__free_pages(page, order);
}

void *kmalloc(size_t size, gfp_t gfp)
{
	struct kmem_cache *c;

	if (!size)
		return ZERO_SIZE_PTR;
	c = kmalloc_slab(size);
	if (!c)
		return kmalloc_large_alloc(size, gfp);
	return kmem_cache_alloc(c, gfp);
}

void *kzalloc(size_t size, gfp_t gfp)
{
	return kmalloc(size, gfp | __GFP_ZERO);
}

void kfree(const void *p)
{
	struct page *page;

	if (ZERO_OR_NULL_PTR(p))
		return;
	page = slab_page_of(p, "kfree");
	if (page->slab_cache == &kmalloc_large)
		kmalloc_large_free(page, p);
	else
		__slab_free(page->slab_cache, page, (void *)p, "kfree");
}

size_t ksize(const void *p)
{
	struct page *page;

	if (ZERO_OR_NULL_PTR(p))
		return 0;
	page = slab_page_of(p, "ksize");
	if (page->slab_cache == &kmalloc_large)
		return PAGE_SIZE << page->order;
	if (!on_boundary(page->slab_cache, page, p))
		BUGF("ksize(%p): not the start of a %s object", p,
		     page->slab_cache->name);
	return page->slab_cache->size;
}

/* The sums of the CPUs' counts: exact when no CPU is allocating. */
unsigned long kmem_cache_pages(struct kmem_cache *c)
{
	long n = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		n += READ_ONCE(c->cpu_slab[cpu].pages);
	return (unsigned long)n;
}

unsigned long kmem_cache_objs_inuse(struct kmem_cache *c)
{
	long n = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		n += READ_ONCE(c->cpu_slab[cpu].objs);
	return (unsigned long)n;
}

unsigned long slab_total_pages(void)
{
	unsigned long n = kmem_cache_pages(&kmalloc_large);

	for (unsigned int i = 0; i < KMEM_CACHE_MAX; i++)
		if (kmem_caches[i].name)
			n += kmem_cache_pages(&kmem_caches[i]);
	return n;
}

static void print_cache(struct kmem_cache *c)
{
	unsigned long pages = kmem_cache_pages(c);

	printk(KERN_INFO "%-16s %11lu %10lu %7lu %6u %4u %7lu\n", c->name,
	       kmem_cache_objs_inuse(c), pages * c->objs_per_slab,
	       (unsigned long)c->size, c->objs_per_slab, 1U, pages);
}

void slab_stats_print(void)
{
	struct kmem_cache *l = &kmalloc_large;

	printk(KERN_INFO "%-16s %11s %10s %7s %6s %4s %7s\n", "# name",
	       "active_objs", "num_objs", "objsize", "objper", "pgs", "pages");
	for (unsigned int i = 0; i < KMEM_CACHE_MAX; i++)
		if (kmem_caches[i].name)
			print_cache(&kmem_caches[i]);
	/* Blocks of varying order: objects are the blocks themselves. */
	printk(KERN_INFO "%-16s %11lu %10lu %7s %6s %4s %7lu\n", l->name,
	       kmem_cache_objs_inuse(l), kmem_cache_objs_inuse(l), "-", "-",
	       "-", kmem_cache_pages(l));
	printk(KERN_INFO "slab: %lu pages in all\n", slab_total_pages());
}
