/* mm/page_alloc.c — the buddy allocator: one free list per order over
 * mem_map, split on allocation, merged with the buddy on free; per-CPU
 * lists of small blocks in front of it; poisoning. */
#include <asm/irqflags.h>
#include <zpk/bug.h>
#include <zpk/huge_mm.h>
#include <zpk/mm.h>
#include <zpk/smp.h>
#include <zpk/spinlock.h>
#include <zpk/param.h>
#include <zpk/printk.h>
#ifndef HOST_TEST
#include <zpk/sched.h>
#include <zpk/smp_lock.h>
#endif
#include <zpk/string.h>
#include <zpk/swap.h>
#include <zpk/vmstat.h>
#include "internal.h"

struct page *mem_map;
unsigned long max_pfn;
bool page_poisoning;

/*
 * Linux's zone->free_area. A free block is listed by its first page only,
 * which carries PG_buddy and the block's order; the other pages of the
 * block have _refcount 0 and are found by arithmetic, never by list.
 */
struct free_area {
	struct list_head free_list;
	unsigned long nr_free;
};
static struct free_area free_area[MAX_ORDER];
/* Protects free_area: every list and block (Linux's zone->lock). No
 * interrupt handler allocates or frees, so interrupts may stay on. The
 * innermost mm lock: taken under other spinlocks by GFP_ATOMIC
 * allocations and by frees, it takes
 * none itself. */
static DEFINE_SPINLOCK(zone_lock);

/* The largest order that is worth a wait (Linux's): the per-CPU lists
 * keep blocks up to it, and an allocation up to it reclaims. */
#define PAGE_ALLOC_COSTLY_ORDER	3

/*
 * Linux's per_cpu_pages ("pcp"): free blocks of up to PCP_MAX_ORDER that
 * a CPU keeps for itself, so that most allocations and frees of pages and
 * kernel stacks (order 2) take no shared lock and touch no shared line.
 * A CPU refills a list from the buddy, and drains it back, a batch at a
 * time under zone_lock. Only its CPU touches a list, with interrupts
 * off: drain_all_pages empties every CPU's through an IPI. Blocks on
 * these lists (PG_pcp and their order on the first page) count as free
 * (NR_FREE_PAGES, kpageflags' BUDDY: in Linux only the buddy's do);
 * nr_free_blocks and buddyinfo see the buddy's only.
 * Host tests have no such lists: they test the buddy itself.
 */
#define PCP_MAX_ORDER	PAGE_ALLOC_COSTLY_ORDER
#define PCP_BATCH	31	/* pages moved at a time */
#define PCP_HIGH	(4 * PCP_BATCH)	/* pages kept, all orders */
struct per_cpu_pages {
	int count;			/* pages on the lists */
	struct list_head lists[PCP_MAX_ORDER + 1];	/* by order, by lru */
} __aligned(64);
static struct per_cpu_pages pcp_lists[NR_CPUS];

/* Flags a page may not carry when it is freed: someone still owns it. */
#define PAGE_FLAGS_CHECK_AT_FREE \
	((1UL << PG_reserved) | (1UL << PG_slab) | (1UL << PG_locked))

static int __used setup_page_poison(const char *val)
{
	if (!val || (strcmp(val, "1") && strcmp(val, "0")))
		return -1;
	page_poisoning = val[0] == '1';
	return 0;
}
early_param("page_poison", setup_page_poison,
	    "1: fill freed pages with 0xaa, check them on allocation");

void mem_map_init(struct page *map, unsigned long nr_pfns)
{
	mem_map = map;
	max_pfn = nr_pfns;
	for (unsigned long pfn = 0; pfn < nr_pfns; pfn++) {
		struct page *page = &map[pfn];

		memset(page, 0, sizeof(*page));
		page->flags = 1UL << PG_reserved;
		set_page_count(page, 1);
		page_mapcount_reset(page);
		INIT_LIST_HEAD(&page->lru);
	}
	for (unsigned int order = 0; order < MAX_ORDER; order++) {
		INIT_LIST_HEAD(&free_area[order].free_list);
		free_area[order].nr_free = 0;
	}
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		for (unsigned int order = 0; order <= PCP_MAX_ORDER; order++)
			INIT_LIST_HEAD(&pcp_lists[cpu].lists[order]);
		pcp_lists[cpu].count = 0;
	}
}

static void add_to_free_list(struct page *page, unsigned int order)
{
	page_set_flag(page, PG_buddy);
	page->order = order;
	list_add(&page->lru, &free_area[order].free_list);
	free_area[order].nr_free++;
}

static void del_from_free_list(struct page *page, unsigned int order)
{
	list_del(&page->lru);
	page_clear_flag(page, PG_buddy);
	free_area[order].nr_free--;
}

/*
 * The block at pfn of this order goes on a free list, after merging with
 * its buddy (the other half of the block one order up) for as long as the
 * buddy is itself a whole free block of the same order.
 */
static void free_one_block(unsigned long pfn, unsigned int order)
{
	/* LAB(pages) BEGIN task 1: merge the block with its free buddies */
	while (order < MAX_ORDER - 1) {
		unsigned long buddy_pfn = pfn ^ (1UL << order);
		struct page *buddy;

		if (!pfn_valid(buddy_pfn))
			break;
		buddy = pfn_to_page(buddy_pfn);
		if (!PageBuddy(buddy) || buddy->order != order)
			break;
		del_from_free_list(buddy, order);
		pfn &= buddy_pfn;	/* the merged block starts lower */
		order++;
	}
	/* LAB(pages) END */
	add_to_free_list(pfn_to_page(pfn), order);
}

/* The largest order of a naturally aligned block at pfn ending <= end. */
static unsigned int block_order(unsigned long pfn, unsigned long end)
{
	unsigned int order = 0;

	while (order < MAX_ORDER - 1 && !(pfn & (1UL << order)) &&
	       pfn + (2UL << order) <= end)
		order++;
	return order;
}

void free_pfn_range(unsigned long start, unsigned long end)
{
	if (end > max_pfn || start > end)
		BUGF("free_pfn_range [%#lx, %#lx) outside mem_map (%#lx pfns)",
		     start, end, max_pfn);
	for (unsigned long pfn = start; pfn < end; pfn++) {
		struct page *page = pfn_to_page(pfn);

		if (!PageReserved(page) || PageZero(page))
			BUGF("free_pfn_range: pfn %#lx is %s", pfn,
			     PageZero(page) ? "the zero page" : "not reserved");
		page->flags = 0;	/* never used: nothing to poison */
		set_page_count(page, 0);
	}
	spin_lock(&zone_lock);
	while (start < end) {
		unsigned int order = block_order(start, end);

		free_one_block(start, order);
		mod_vm_stat(NR_FREE_PAGES, 1L << order);
		start += 1UL << order;
	}
	spin_unlock(&zone_lock);
}

/* Offset of the first byte at mem that is not PAGE_POISON, or -1. */
static long first_unpoisoned(const u8 *mem)
{
	/* LAB(pages) BEGIN task 2: find the first byte that is not poison */
	const u64 *w = (const u64 *)mem;

	for (unsigned long i = 0; i < PAGE_SIZE / 8; i++)
		if (w[i] != 0x0101010101010101ULL * PAGE_POISON)
			for (unsigned long b = i * 8; ; b++)
				if (mem[b] != PAGE_POISON)
					return (long)b;
	/* LAB(pages) END: (void)mem; */
	return -1;
}

/* A free page must look untouched; check it and make it allocated. */
static void prep_one_page(struct page *page, gfp_t gfp)
{
	unsigned long pfn = page_to_pfn(page);
	const u8 *mem = page_address(page);
	long off;

	if (atomic_read(&page->_refcount) ||
	    atomic_read(&page->_mapcount) != -1 ||
	    (page->flags & ~(1UL << PG_poisoned)))
		BUGF("bad page state at alloc: pfn %#lx flags %#lx _refcount "
		     "%d _mapcount %d (struct page written while free)",
		     pfn, page->flags, atomic_read(&page->_refcount),
		     atomic_read(&page->_mapcount));
	if (PagePoisoned(page) && (off = first_unpoisoned(mem)) >= 0)
		BUGF("use after free: pfn %#lx written while free, byte at "
		     "offset %#lx is %#x, not poison %#x", pfn,
		     (unsigned long)off, mem[off], PAGE_POISON);
	page->flags = 0;
	page->order = 0;
	atomic_set(&page->compound_mapcount, 0);
	if (gfp & __GFP_ZERO)
		clear_page(page_address(page));
}

/* Takes the smallest free block >= order; its upper halves go back. */
static struct page *rmqueue(unsigned int order)
{
	for (unsigned int o = order; o < MAX_ORDER; o++) {
		struct page *page;

		if (list_empty(&free_area[o].free_list))
			continue;
		page = list_first_entry(&free_area[o].free_list,
					struct page, lru);
		del_from_free_list(page, o);
		while (o > order) {	/* Linux's expand() */
			o--;
			add_to_free_list(page + (1UL << o), o);
		}
		return page;
	}
	return NULL;
}

/* ---- the per-CPU lists ---------------------------------------------- */

#ifndef HOST_TEST
/* Blocks of this order moved at a time: about PCP_BATCH pages. */
static int pcp_batch(unsigned int order)
{
	return max(PCP_BATCH >> order, 1);
}

/* Moves up to n blocks of order between the buddy and this CPU's list
 * (n < 0: from the list to the buddy). Interrupts off. */
static void pcp_move(struct per_cpu_pages *pcp, unsigned int order, int n)
{
	struct list_head *list = &pcp->lists[order];
	struct page *page;

	spin_lock(&zone_lock);
	for (; n > 0 && (page = rmqueue(order)); n--) {
		page_set_flag(page, PG_pcp);
		page->order = order;
		list_add(&page->lru, list);
		pcp->count += 1 << order;
	}
	for (; n < 0 && !list_empty(list); n++) {
		page = list_last_entry(list, struct page, lru);
		list_del(&page->lru);
		page_clear_flag(page, PG_pcp);
		pcp->count -= 1 << order;
		free_one_block(page_to_pfn(page), order);
	}
	spin_unlock(&zone_lock);
}

/* A block of order from this CPU's list, refilled from the buddy. */
static struct page *rmqueue_pcplist(unsigned int order)
{
	struct per_cpu_pages *pcp;
	struct page *page = NULL;
	unsigned long flags;

	local_irq_save(flags);
	pcp = &pcp_lists[smp_processor_id()];
	if (list_empty(&pcp->lists[order]))
		pcp_move(pcp, order, pcp_batch(order));
	if (!list_empty(&pcp->lists[order])) {
		page = list_first_entry(&pcp->lists[order], struct page, lru);
		list_del(&page->lru);
		page_clear_flag(page, PG_pcp);
		pcp->count -= 1 << order;
	}
	local_irq_restore(flags);
	return page;
}

/* A freed block goes on this CPU's list; past PCP_HIGH pages a batch of
 * its order goes back to the buddy, then of the others, smallest first,
 * until the lists are under PCP_HIGH (Linux's free_unref_page). */
static void free_unref_page(struct page *page, unsigned int order)
{
	struct per_cpu_pages *pcp;
	unsigned long flags;

	local_irq_save(flags);
	pcp = &pcp_lists[smp_processor_id()];
	page_set_flag(page, PG_pcp);
	page->order = order;
	list_add(&page->lru, &pcp->lists[order]);
	pcp->count += 1 << order;
	if (pcp->count > PCP_HIGH)
		pcp_move(pcp, order, -pcp_batch(order));
	for (unsigned int o = 0; o <= PCP_MAX_ORDER && pcp->count > PCP_HIGH; o++)
		pcp_move(pcp, o, -pcp_batch(o));
	local_irq_restore(flags);
}

/* IPI handler (or with interrupts off): all of this CPU's lists back. */
static void drain_local_pages(void *unused)
{
	struct per_cpu_pages *pcp = &pcp_lists[smp_processor_id()];

	(void)unused;
	for (unsigned int order = 0; order <= PCP_MAX_ORDER; order++)
		pcp_move(pcp, order, -pcp->count);
}

void drain_all_pages(void)
{
	on_each_cpu(drain_local_pages, NULL, true);
}
#else
static struct page *rmqueue_pcplist(unsigned int order)
{
	struct page *page;

	spin_lock(&zone_lock);
	page = rmqueue(order);
	spin_unlock(&zone_lock);
	return page;
}

static void free_unref_page(struct page *page, unsigned int order)
{
	spin_lock(&zone_lock);
	free_one_block(page_to_pfn(page), order);
	spin_unlock(&zone_lock);
}

void drain_all_pages(void)
{
}
#endif

/* ---- allocating and freeing --------------------------------------------- */

/* A block of 1 << order pages: up to PCP_MAX_ORDER from the per-CPU
 * lists, larger blocks from the buddy under zone_lock. */
static struct page *get_page_from_freelist(unsigned int order)
{
	struct page *page;

	if (order <= PCP_MAX_ORDER)
		return rmqueue_pcplist(order);
	spin_lock(&zone_lock);
	page = rmqueue(order);
	spin_unlock(&zone_lock);
	return page;
}

/*
 * A GFP_KERNEL allocation may sleep (in Linux, in reclaim; in zpk, one
 * day): made with a spinlock held or interrupts off it is a bug even
 * while zpk's happens not to sleep (Linux's might_sleep_if in
 * __alloc_pages). Reported once, with the caller's backtrace, as
 * "BUG: sleeping function called from invalid context", which fails
 * the test runs (tests/qemu/user.sh looks for BUG).
 */
static void might_alloc(gfp_t gfp)
{
#ifndef HOST_TEST
	static bool warned;

	if ((gfp & __GFP_ATOMIC) || system_state == SYSTEM_BOOTING)
		return;
	if (likely(!spin_locks_held() && !irqs_disabled()))
		return;
	if (READ_ONCE(warned))
		return;
	WRITE_ONCE(warned, true);	/* a race may print it twice */
	__might_sleep(__FILE__, __LINE__);
#else
	(void)gfp;
#endif
}

/*
 * Whether an allocation may reclaim (sleep): not GFP_ATOMIC, at no
 * spinlock and with interrupts on (might_alloc's rule), not under the
 * big kernel lock (whose holders count on an allocation not sleeping:
 * it would let the lock go), and not from reclaim itself (PF_MEMALLOC).
 */
#ifndef HOST_TEST
bool alloc_may_reclaim(gfp_t gfp)
{
	return !(gfp & __GFP_ATOMIC) && system_state != SYSTEM_BOOTING &&
	       !spin_locks_held() && !irqs_disabled() && !kernel_locked() &&
	       !(current->flags & PF_MEMALLOC);
}
#else
bool alloc_may_reclaim(gfp_t gfp)
{
	(void)gfp;
	return false;	/* the host tests have no reclaim */
}
#endif

/*
 * The pages under min are for the allocations that may not sleep (the
 * atomic ones, the big kernel lock's holders). Below min and the pages
 * wanted, one that may sleep, and is small (Linux's
 * PAGE_ALLOC_COSTLY_ORDER: a THP falls back to small pages instead),
 * reclaims first; a user page that then still finds too few fails
 * (GFP_HIGHUSER: the fault's OOM path reclaims with its locks let go, or
 * kills). Whether the allocation may go on.
 */
static bool min_watermark_ok(gfp_t gfp, unsigned int order)
{
#ifndef HOST_TEST
	unsigned long want = 1UL << order;

	if (global_vm_stat(NR_FREE_PAGES) >= min_wmark + want)
		return true;
	if (order <= PAGE_ALLOC_COSTLY_ORDER && alloc_may_reclaim(gfp) &&
	    throttle_direct_reclaim(want))
		return true;
	if (!(gfp & __GFP_USER))
		return true;
	wakeup_kswapd();
	return false;
#else
	(void)gfp;
	(void)order;
	return true;
#endif
}

struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	struct page *page;

	might_alloc(gfp);
	if (order >= MAX_ORDER)
		return NULL;
	if (!min_watermark_ok(gfp, order))
		return NULL;
	page = get_page_from_freelist(order);
	if (!page && !irqs_disabled()) {
		/* The free pages may sit on other CPUs' lists. */
		drain_all_pages();
		page = get_page_from_freelist(order);
	}
#ifndef HOST_TEST
	/* Memory pressure: the huge zero page's shrinker (Linux's
	 * shrink_huge_zero_page_scan) gives back an unused one. */
	if (!page && shrink_huge_zero_page())
		page = get_page_from_freelist(order);
#endif
	if (!page)
		return NULL;
	mod_vm_stat(NR_FREE_PAGES, -(1L << order));
	count_vm_events(PGALLOC, 1UL << order);
	for (unsigned long i = 0; i < (1UL << order); i++)
		prep_one_page(page + i, gfp);
	page->order = order;	/* checked by __free_pages, used by put_page */
	set_page_count(page, 1);
	if (unlikely(global_vm_stat(NR_FREE_PAGES) < low_wmark))
		wakeup_kswapd();	/* below low: reclaim to high */
	return page;
}

struct page *alloc_compound_pages(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages(gfp, order);

	if (!page || !order)
		return page;
	page_set_flag(page, PG_head);
	for (unsigned long i = 1; i < (1UL << order); i++)
		WRITE_ONCE(page[i].compound_head, (unsigned long)page | 1);
	return page;
}

/* A compound page's last reference went: its tails and head become
 * plain pages again, checked as Linux's free_tail_pages_check does. */
static void destroy_compound_page(struct page *page, unsigned int order,
				  void *caller)
{
	if (atomic_read(&page->compound_mapcount))
		BUGF("freeing compound pfn %#lx still PMD-mapped (%d), "
		     "caller %p", page_to_pfn(page),
		     atomic_read(&page->compound_mapcount), caller);
	for (unsigned long i = 1; i < (1UL << order); i++) {
		if (atomic_read(&page[i]._mapcount) != -1 ||
		    atomic_read(&page[i]._refcount))
			BUGF("freeing compound pfn %#lx: tail %lu mapped or "
			     "referenced, caller %p", page_to_pfn(page), i,
			     caller);
		WRITE_ONCE(page[i].compound_head, 0);
	}
	page_clear_flag(page, PG_head);
}

/* The checks Linux's free_pages_check makes, once the last ref is gone. */
static void free_pages_check(struct page *page, unsigned int order,
			     void *caller)
{
	unsigned long pfn = page_to_pfn(page);

	if (PageReserved(page))
		BUGF("freeing reserved pfn %#lx, caller %p", pfn, caller);
	if (page_mapcount(page))
		BUGF("freeing pfn %#lx still mapped (_mapcount %d), caller %p",
		     pfn, page_mapcount(page) - 1, caller);
	if (page->flags & PAGE_FLAGS_CHECK_AT_FREE)
		BUGF("freeing pfn %#lx with flags %#lx still set, caller %p",
		     pfn, page->flags, caller);
	if (page->order != order)
		BUGF("freeing pfn %#lx at order %u, allocated at order %u, "
		     "caller %p", pfn, order, page->order, caller);
}

/* __free_pages with the caller to blame, for every public entry point. */
static void free_pages_caller(struct page *page, unsigned int order,
			      void *caller)
{
	unsigned long pfn = page_to_pfn(page);

	if (!pfn_valid(pfn) || order >= MAX_ORDER)
		BUGF("freeing pfn %#lx order %u: no such page, caller %p",
		     pfn, order, caller);
	if (PageBuddy(page))
		BUGF("double free of pfn %#lx (free, order %u), caller %p",
		     pfn, page->order, caller);
	if (atomic_read(&page->_refcount) <= 0)
		BUGF("freeing pfn %#lx with _refcount %d (already free, or not "
		     "the first page of its block), caller %p",
		     pfn, atomic_read(&page->_refcount), caller);
	if (!page_ref_dec_and_test(page))
		return;
	if (PageHead(page))
		destroy_compound_page(page, order, caller);
	free_pages_check(page, order, caller);
	for (unsigned long i = 0; i < (1UL << order); i++) {
		page[i].flags = 0;
		if (page_poisoning) {
			memset(page_address(&page[i]), PAGE_POISON, PAGE_SIZE);
			page_set_flag(&page[i], PG_poisoned);
		}
	}
	if (order > PCP_MAX_ORDER) {
		spin_lock(&zone_lock);
		free_one_block(pfn, order);
		spin_unlock(&zone_lock);
	} else {
		free_unref_page(page, order);
	}
	mod_vm_stat(NR_FREE_PAGES, 1L << order);
	count_vm_events(PGFREE, 1UL << order);
}

void __free_pages(struct page *page, unsigned int order)
{
	free_pages_caller(page, order, __builtin_return_address(0));
}

void put_page(struct page *page)
{
	page = compound_head(page);
	free_pages_caller(page, page->order, __builtin_return_address(0));
}

unsigned long __get_free_pages(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages(gfp, order);

	return page ? (unsigned long)page_address(page) : 0;
}

unsigned long get_zeroed_page(gfp_t gfp)
{
	return __get_free_pages(gfp | __GFP_ZERO, 0);
}

void free_pages(unsigned long addr, unsigned int order)
{
	if (addr)
		free_pages_caller(virt_to_page((void *)addr), order,
				  __builtin_return_address(0));
}

/* rep stosq, as Linux's clear_page_rep: one instruction for the page's
 * 512 words, which the CPU's fast-string microcode runs at full width. */
void clear_page(void *addr)
{
	unsigned long words = PAGE_SIZE / 8;

	asm volatile("rep stosq"
		     : "+D"(addr), "+c"(words)
		     : "a"(0UL)
		     : "memory");
	count_vm_event(PGZERO);
}

/* rep movsq, as Linux's copy_page: a COW copy in one instruction. */
void copy_page(void *to, const void *from)
{
	unsigned long words = PAGE_SIZE / 8;

	asm volatile("rep movsq"
		     : "+D"(to), "+S"(from), "+c"(words)
		     :
		     : "memory");
}

unsigned long nr_free_pages(void)
{
	return global_vm_stat(NR_FREE_PAGES);
}

unsigned long nr_free_blocks(unsigned int order)
{
	return order < MAX_ORDER ? free_area[order].nr_free : 0;
}

/* The buddy's free blocks (pages on the per-CPU lists are not in it). */
void buddy_dump(void)
{
	printk(KERN_INFO "Node 0, zone   Normal");
	for (unsigned int order = 0; order < MAX_ORDER; order++)
		printk(KERN_CONT " %6lu", free_area[order].nr_free);
	printk(KERN_CONT "\n");
	printk(KERN_INFO "buddy: %lu pages free\n", nr_free_pages());
}
