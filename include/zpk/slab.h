/* zpk/slab.h — the slab allocator: object caches and kmalloc/kfree.
 * Small objects live in one-page slabs; big kmallocs take whole pages. */
#ifndef ZPK_SLAB_H
#define ZPK_SLAB_H

#include <zpk/types.h>
#include <zpk/list.h>
#include <zpk/mm.h>
#include <zpk/spinlock.h>
#include <asm/percpu.h>

#define KMALLOC_MIN_SIZE	8
#define KMALLOC_MAX_CACHE_SIZE	2048	/* bigger requests go to the buddy */
#define NR_KMALLOC_CACHES	9	/* kmalloc-8 ... kmalloc-2048 */
#define SLAB_POISON_FREE	0x6b	/* fills free objects, as Linux's */

/*
 * kmalloc(0) returns this, like Linux: not NULL (that means "no memory"),
 * but dereferencing it faults in the unmapped first page. kfree takes it.
 */
#define ZERO_SIZE_PTR		((void *)16)
#define ZERO_OR_NULL_PTR(p)	\
	((unsigned long)(p) <= (unsigned long)ZERO_SIZE_PTR)

/*
 * A CPU's part of a cache (Linux's struct kmem_cache_cpu): the slabs it
 * made, each with page->slab_cpu naming it. Its own line: in the common
 * case only its CPU writes it, so a fault, mmap or munmap on one CPU
 * writes no slab line another CPU writes.
 */
struct kmem_cache_cpu {
	/* Protects page, partial, and the freelist and inuse of every slab
	 * of this CPU. Taken by its CPU to allocate or free, by another CPU
	 * only to free an object of one of them (SLUB does that with a
	 * cmpxchg). */
	spinlock_t lock;
	struct page *page;		/* the slab it allocates from, or NULL */
	struct list_head partial;	/* its other slabs with free objects;
					 * full ones are on no list */
	/* Written by this CPU only, without a lock (no interrupt handler
	 * allocates); their sums over the CPUs are exact when read. */
	long objs;		/* objects allocated minus freed here */
	long pages;		/* slab pages taken minus given back here */
} __aligned(64);

struct kmem_cache {
	const char *name;	/* NULL: this slot of the cache table is free */
	size_t size;		/* bytes per object, rounded up to align */
	size_t align;
	unsigned int objs_per_slab;
	struct kmem_cache_cpu cpu_slab[NR_CPUS];
};

/*
 * A cache of objects of size bytes aligned to align (0: 8; a power of two).
 * size must be at most PAGE_SIZE. name is kept, not copied. Returns NULL
 * if the size or alignment is impossible or the cache table is full.
 */
struct kmem_cache *kmem_cache_create(const char *name, size_t size,
				     size_t align);
/* Gives back a cache with no objects in use (BUG otherwise). */
void kmem_cache_destroy(struct kmem_cache *c);
/*
 * One object from c, aligned, or NULL if the buddy allocator is out of
 * pages. Its content is SLAB_POISON_FREE bytes unless gfp has __GFP_ZERO.
 */
void *kmem_cache_alloc(struct kmem_cache *c, gfp_t gfp);
/* Frees an object of c; BUGs if obj is not an allocated object of c. */
void kmem_cache_free(struct kmem_cache *c, void *obj);

/* Sets up kmalloc-8 ... kmalloc-2048; after the buddy allocator, once. */
void kmalloc_init(void);
/*
 * size bytes aligned to the power of two >= size (up to 2048; page
 * aligned above), or NULL. kmalloc(0) returns ZERO_SIZE_PTR.
 */
void *kmalloc(size_t size, gfp_t gfp);
/* kmalloc, zeroed. */
void *kzalloc(size_t size, gfp_t gfp);
/* Frees what kmalloc returned; NULL and ZERO_SIZE_PTR are no-ops. BUGs
 * (naming p) on anything else: a foreign, interior or already-freed p. */
void kfree(const void *p);
/* Usable bytes at p, which kmalloc returned: >= the size asked for. */
size_t ksize(const void *p);

#endif
