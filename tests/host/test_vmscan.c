/* host-test-sources: mm/vmscan.c mm/swap_state.c mm/swap_map.c mm/memory.c mm/huge_memory.c mm/rmap.c mm/mprotect.c mm/mmu_gather.c mm/zero_page.c mm/mmap.c lib/rbtree.c mm/slab.c mm/page_alloc.c mm/vmstat.c lib/string.c lib/vsnprintf.c tests/host/harness.c */
/* tests/host/test_vmscan.c — reclaim's clock (mm/vmscan.c) on the real
 * page tables, swap cache and slot map, with a swap disk in host memory:
 * the second chance (a page whose accessed bit is set loses the bit and
 * stays, one without it goes to swap), the clock going on where it
 * stopped, and do_swap_page bringing a page back with its contents. */
/* host-test-cflags: -fno-sanitize=alignment */
/* (shrink_mms's list_for_each_entry over mmlist forms the head's
 * container pointer, misaligned for the 64-byte-aligned mm_struct: the
 * check Linux's UBSAN leaves off by default.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mm_lifecycle.h>
#include <zpk/mman.h>
#include <zpk/swap.h>
#include <zpk/swapops.h>
#include <zpk/vmstat.h>
#include <zpk/wait.h>
#include <zpk/workqueue.h>

#include "harness.h"

#define NR_PFNS		2048UL
#define SLOTS		64U		/* the area: header + 63 slots */
#define NP		48UL		/* pages the test maps */
#define X		0x40000000UL
#define P		PAGE_SIZE

/* What the kernel has that a host test needs none of: no thread is
 * started, no one waits (the disk below answers at once). */
pgd_t *init_pgd;
u64 jiffies;
LIST_HEAD(mmlist);
struct rw_semaphore mmlist_lock;

void __might_sleep(const char *file, int line)
{
	(void)file, (void)line;
}

int kernel_thread(int (*fn)(void *), void *arg, const char *name)
{
	(void)fn, (void)arg, (void)name;
	return -1;
}

bool schedule_work(struct work_struct *work)
{
	(void)work;
	return true;
}

void prepare_to_wait(struct wait_queue_head *q, struct wait_queue_entry *w,
		     int state)
{
	(void)q, (void)w, (void)state;
	fail_msg("a host test waited");
}

void finish_wait(struct wait_queue_head *q, struct wait_queue_entry *w)
{
	(void)q, (void)w;
}

void schedule(void)
{
}

u64 ktime_get_ns(void)
{
	return 0;
}

void wake_up(struct wait_queue_head *q)
{
	(void)q;
}

void mmput(struct mm_struct *m)
{
	atomic_dec(&m->mm_users);
}

/* The swap disk: a page per slot, written and read at once. */
static char disk[SLOTS][PAGE_SIZE];
static unsigned int writes, reads;

void swap_writepages(struct page **pages, unsigned int n, bool *ok)
{
	for (unsigned int i = 0; i < n; i++) {
		swp_entry_t entry = { pages[i]->index };

		memcpy(disk[swp_offset(entry)], page_address(pages[i]), P);
		ok[i] = true;
		writes++;
	}
}

int swap_readpage(struct page *page, swp_entry_t entry)
{
	memcpy(page_address(page), disk[swp_offset(entry)], P);
	reads++;
	return 0;
}

static struct mm_struct mm;
static struct swap_info_struct *si;
static unsigned char map[SLOTS];
static union swap_header hdr;

static int group_setup(void **state)
{
	(void)state;
	return harness_heap_init(NR_PFNS);
}

static int setup(void **state)
{
	(void)state;
	memset(&hdr, 0, sizeof(hdr));
	memcpy(hdr.magic.magic, SWAP_MAGIC, 10);
	hdr.info.version = 1;
	hdr.info.last_page = SLOTS - 1;
	assert_int_equal(alloc_swap_info(&si), 0);
	enable_swap_info(si, -1, map, SLOTS,
			 setup_swap_map(map, SLOTS, &hdr));
	memset(&mm, 0, sizeof(mm));
	mm_init_vmas(&mm);
	assert_non_null(pgd_alloc(&mm));
	atomic_set(&mm.mm_users, 1);
	list_add(&mm.mmlist, &mmlist);
	assert_int_equal(do_mmap(&mm, X, NP * P, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
				 NULL, 0), X);
	for (unsigned long i = 0; i < NP; i++) {
		assert_int_equal(handle_mm_fault(find_vma(&mm, X + i * P),
						 X + i * P, FAULT_FLAG_WRITE |
						 FAULT_FLAG_USER), 0);
		memset((void *)page_address(vm_normal_page(NULL, X + i * P,
					    *pte_lookup(&mm, X + i * P))),
		       (int)i + 1, P);
	}
	writes = reads = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	list_del(&mm.mmlist);
	exit_mmap_vmas(&mm);
	free_pgtables(&mm);
	assert_int_equal(disable_swap_info(si), 0);	/* no slot in use */
	free_swap_info(si);
	return 0;
}

static pte_t pte_of(unsigned long i)
{
	return *pte_lookup(&mm, X + i * P);
}

/* The hardware's part: an access sets the accessed bit. */
static void touch(unsigned long i)
{
	pte_t *pte = pte_lookup(&mm, X + i * P);

	set_pte(pte, pte_mkyoung(*pte));
}

static unsigned long swapped(void)
{
	unsigned long n = 0;

	for (unsigned long i = 0; i < NP; i++)
		n += is_swap_pte(pte_of(i));
	return n;
}

/* A fault brings every page back, with what it held. */
static void all_back(void)
{
	for (unsigned long i = 0; i < NP; i++) {
		struct page *page;

		if (is_swap_pte(pte_of(i)))
			assert_int_equal(handle_mm_fault(find_vma(&mm, X + i * P),
							 X + i * P,
							 FAULT_FLAG_USER) &
					 ~VM_FAULT_MAJOR, 0);
		page = vm_normal_page(NULL, X + i * P, pte_of(i));
		assert_non_null(page);
		assert_int_equal(((unsigned char *)page_address(page))[100],
				 i + 1);
	}
	assert_int_equal(get_mm_counter(&mm, MM_SWAPENTS), 0);
	assert_int_equal(get_mm_counter(&mm, MM_ANONPAGES), NP);
}

/* Every page was just written (young): the first turn only takes the
 * bits, the second sends pages out, SWAP_BATCH of them. */
static void test_young_pages_get_a_second_chance(void **state)
{
	(void)state;
	for (unsigned long i = 0; i < NP; i++)
		assert_true(pte_young(pte_of(i)));
	assert_int_equal(try_to_free_pages(), 32);
	assert_int_equal(swapped(), 32);
	assert_int_equal(writes, 32);
	for (unsigned long i = 0; i < NP; i++)
		assert_true(is_swap_pte(pte_of(i)) || !pte_young(pte_of(i)));
	assert_int_equal(get_mm_counter(&mm, MM_SWAPENTS), 32);
	assert_int_equal(get_mm_counter(&mm, MM_ANONPAGES), NP - 32);
	all_back();
	assert_int_equal(reads, 32);
}

/* Pages used since the last pass stay; the others go, a batch of them
 * (a page in three used, so the 32 others are the batch), from where
 * the clock stopped. */
static void test_used_pages_stay(void **state)
{
	(void)state;
	for (unsigned long i = 0; i < NP; i++)	/* every bit taken */
		ptep_test_and_clear_young(pte_lookup(&mm, X + i * P));
	for (unsigned long i = 0; i < NP; i += 3)
		touch(i);
	assert_int_equal(try_to_free_pages(), 32);
	for (unsigned long i = 0; i < NP; i++)
		assert_int_equal(is_swap_pte(pte_of(i)), i % 3 != 0);
	all_back();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_young_pages_get_a_second_chance, setup, teardown),
		cmocka_unit_test_setup_teardown(test_used_pages_stay, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, group_setup, harness_heap_free);
}
