/* mm/swap_state.c — the swap cache (Linux's mm/swap_state.c): a page
 * found by its slot while it is written out or read in, so that a fault
 * on any PTE naming the slot, in any mm, finds the one page. */
#include <zpk/bug.h>
#include <zpk/err.h>
#include <zpk/errno.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/sched.h>
#include <zpk/swap.h>
#include <zpk/vmstat.h>
#include <zpk/wait.h>
#include "internal.h"

/*
 * swap_cache_lock guards the hash and, for a page in the cache, its
 * PG_swapcache, PG_locked and PG_dirty bits and every change of its
 * _mapcount to or from -1 (page_remove_rmap, do_swap_page), so that a
 * page is dropped from the cache only when nothing maps it. Inside a
 * PTE lock; swap_lock and zone_lock nest inside it.
 */
DEFINE_SPINLOCK(swap_cache_lock);
/* The pages, by slot: chains through page->mapping, which an anonymous
 * page does not use otherwise. */
static struct page *swap_hash[256];
static unsigned long swap_cache_pages;	/* meminfo's SwapCached */
static struct wait_queue_head swap_io_wait =	/* PG_locked cleared */
	WAIT_QUEUE_HEAD_INIT(swap_io_wait);

static struct page **hash_of(swp_entry_t entry)
{
	unsigned long v = entry.val;

	v ^= v >> 8 ^ v >> 58;
	return &swap_hash[v % ARRAY_SIZE(swap_hash)];
}

unsigned long total_swapcache_pages(void)
{
	return READ_ONCE(swap_cache_pages);
}

/* swap_cache_lock held. */
static struct page *__lookup_swap_cache(swp_entry_t entry)
{
	struct page *page = *hash_of(entry);

	while (page && page->index != entry.val)
		page = page->mapping;
	return page;
}

struct page *lookup_swap_cache(swp_entry_t entry)
{
	struct page *page;

	spin_lock(&swap_cache_lock);
	page = __lookup_swap_cache(entry);
	if (page)
		get_page(page);
	spin_unlock(&swap_cache_lock);
	return page;
}

bool swap_cache_has(swp_entry_t entry)
{
	bool ret;

	spin_lock(&swap_cache_lock);
	ret = __lookup_swap_cache(entry) != NULL;
	spin_unlock(&swap_cache_lock);
	return ret;
}

int add_to_swap_cache(struct page *page, swp_entry_t entry, bool dirty)
{
	int err = 0;

	spin_lock(&swap_cache_lock);
	if (__lookup_swap_cache(entry))
		err = -EEXIST;
	else
		err = swap_duplicate(entry);
	if (!err) {
		get_page(page);
		page->index = entry.val;
		page_set_flag(page, PG_swapcache);
		page_set_flag(page, PG_locked);
		if (dirty)
			page_set_flag(page, PG_dirty);
		page->mapping = *hash_of(entry);
		*hash_of(entry) = page;
		swap_cache_pages++;
	}
	spin_unlock(&swap_cache_lock);
	return err;
}

/* Out of the cache: its slot reference and its page reference go.
 * swap_cache_lock held; the caller holds a reference of its own or a
 * mapping, so the page is not freed under the lock's holder's feet. */
static void __delete_from_swap_cache(struct page *page)
{
	swp_entry_t entry = { page->index };
	struct page **pp = hash_of(entry);

	while (*pp != page)
		pp = (struct page **)&(*pp)->mapping;
	*pp = page->mapping;
	page->mapping = NULL;
	swap_cache_pages--;
	page_clear_flag(page, PG_swapcache);
	page_clear_flag(page, PG_dirty);
	page->index = 0;
	swap_free(entry);
	put_page(page);
}

/* Unused: not mapped, not under I/O, and on disk (or its slot has no
 * other user: then nothing will read it). swap_cache_lock held. */
static bool swap_cache_unused(struct page *page)
{
	swp_entry_t entry = { page->index };

	if (!PageSwapCache(page) || page_test_flag(page, PG_locked) ||
	    page_mapcount(page) > 0)
		return false;
	return !page_test_flag(page, PG_dirty) || swp_swapcount(entry) == 1;
}

bool __try_to_free_swap(struct page *page)
{
	if (!swap_cache_unused(page))
		return false;
	__delete_from_swap_cache(page);
	return true;
}

bool try_to_free_swap(struct page *page)
{
	bool ret;

	spin_lock(&swap_cache_lock);
	ret = __try_to_free_swap(page);
	spin_unlock(&swap_cache_lock);
	return ret;
}

void delete_from_swap_cache(struct page *page)
{
	spin_lock(&swap_cache_lock);
	if (PageSwapCache(page))
		__delete_from_swap_cache(page);
	spin_unlock(&swap_cache_lock);
}

void free_swap_and_cache(swp_entry_t entry)
{
	struct page *page;

	spin_lock(&swap_cache_lock);
	swap_free(entry);
	page = __lookup_swap_cache(entry);
	if (page && swp_swapcount(entry) == 1)
		__try_to_free_swap(page);
	spin_unlock(&swap_cache_lock);
}

void swap_io_done(struct page *page, bool clean)
{
	spin_lock(&swap_cache_lock);
	if (clean)
		page_clear_flag(page, PG_dirty);
	page_clear_flag(page, PG_locked);
	__try_to_free_swap(page);
	spin_unlock(&swap_cache_lock);
	wake_up(&swap_io_wait);
}

void wait_on_swap_page(struct page *page)
{
	struct wait_queue_entry e = { .task = current };

	for (;;) {
		prepare_to_wait(&swap_io_wait, &e, TASK_UNINTERRUPTIBLE);
		if (!(READ_ONCE(page->flags) & (1UL << PG_locked)))
			break;
		schedule();
	}
	finish_wait(&swap_io_wait, &e);
}

int swap_cache_drop_type(unsigned int type)
{
	int err = 0;

	spin_lock(&swap_cache_lock);
	for (unsigned int i = 0; i < ARRAY_SIZE(swap_hash); i++) {
		struct page *page = swap_hash[i], *next;

		for (; page; page = next) {
			next = page->mapping;
			if (swp_type((swp_entry_t){ page->index }) != type)
				continue;
			if (page_test_flag(page, PG_locked))
				err = -EBUSY;
			else
				__delete_from_swap_cache(page);
		}
	}
	spin_unlock(&swap_cache_lock);
	return err;
}

/* mm_verify: the cache's slot references, counted in or out. */
void swap_cache_tally(int delta)
{
	struct page *page;

	spin_lock(&swap_cache_lock);
	for (unsigned int i = 0; i < ARRAY_SIZE(swap_hash); i++)
		for (page = swap_hash[i]; page; page = page->mapping)
			swap_tally((swp_entry_t){ page->index }, delta);
	spin_unlock(&swap_cache_lock);
}

/* ---- swap-in ---------------------------------------------------------- */

/* internal.h. A racing fault of the same slot finds the page in the cache
 * and waits for its read (PG_locked) instead of reading it twice. */
struct page *swapin_page(swp_entry_t entry, bool *major)
{
	struct page *page, *new;
	int err;

	for (;;) {
		page = lookup_swap_cache(entry);
		if (page)
			break;
		if (spin_locks_held() || irqs_disabled())
			return ERR_PTR(-EIO);	/* a uaccess under a lock */
		new = alloc_page(GFP_HIGHUSER);
		if (!new)
			return ERR_PTR(-ENOMEM);
		err = add_to_swap_cache(new, entry, false);
		if (err) {
			put_page(new);
			if (err == -EEXIST)
				continue;	/* another fault reads it */
			return ERR_PTR(-EAGAIN);
		}
		*major = true;
		err = swap_readpage(new, entry);
		spin_lock(&swap_cache_lock);
		page_clear_flag(new, PG_locked);
		if (err)	/* no one may map what is not there */
			__delete_from_swap_cache(new);
		spin_unlock(&swap_cache_lock);
		wake_up(&swap_io_wait);
		if (err) {
			put_page(new);
			return ERR_PTR(-EIO);
		}
		return new;
	}
	if (!spin_locks_held() && !irqs_disabled()) {
		wait_on_swap_page(page);	/* a read (or write) under way */
	} else if (page_test_flag(page, PG_locked)) {
		put_page(page);
		return ERR_PTR(-EIO);
	}
	return page;
}

int swap_cache_map(struct page *page, swp_entry_t entry)
{
	int exclusive;

	spin_lock(&swap_cache_lock);
	if (!PageSwapCache(page) || page->index != entry.val) {
		spin_unlock(&swap_cache_lock);
		return -EAGAIN;
	}
	swap_free(entry);
	/* Ours and the cache's references, the cache's slot reference, no
	 * mapping: no one else can reach it (Linux's exclusive swap-in). */
	exclusive = page_mapcount(page) == 0 && page_count(page) == 2 &&
		    swp_swapcount(entry) == 1 &&
		    !page_test_flag(page, PG_locked);
	page_add_anon_rmap(page, exclusive);
	if (exclusive)
		__delete_from_swap_cache(page);
	spin_unlock(&swap_cache_lock);
	return exclusive;
}

void swapcache_remove_rmap(struct page *page)
{
	spin_lock(&swap_cache_lock);
	__page_remove_rmap(page);
	__try_to_free_swap(page);
	spin_unlock(&swap_cache_lock);
}
