/* tests/host/harness.h — what the mm tests share: simulated RAM, a printk
 * that logs into a buffer, and a panic() that expect_bug() can catch. */
#ifndef TESTS_HOST_HARNESS_H
#define TESTS_HOST_HARNESS_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>

#include <zpk/mm.h>
#include <zpk/slab.h>

#include "mm/internal.h"	/* the mm tests call inside mm/, as KUnit's */

/* ---- simulated RAM -------------------------------------------------- */

/* The mem_map behind host_ram_base, and how many pfns both cover. */
extern struct page *harness_mem_map;
extern unsigned long harness_nr_pfns;

/*
 * Allocates bytes (a multiple of PAGE_SIZE) of page-aligned RAM and its
 * mem_map, all pages reserved (mem_map_init); 0, or -1 if out of memory.
 */
int harness_ram_init(size_t bytes);

/* Every page reserved again, free lists empty; RAM is left as it is. */
void harness_ram_reset(void);

/* Gives the RAM and the mem_map back to the host. */
void harness_ram_free(void);

/*
 * The fixture of the tests that allocate: nr_pfns pages of RAM, all but
 * pfn 0 free in the buddy allocator, and the slab caches ready; 0 or -1.
 * harness_heap_free (a cmocka group teardown) gives the RAM back.
 */
static inline int harness_heap_init(unsigned long nr_pfns)
{
	if (harness_ram_init(nr_pfns * PAGE_SIZE))
		return -1;
	free_pfn_range(1, nr_pfns);
	kmalloc_init();
	return 0;
}

static inline int harness_heap_free(void **state)
{
	(void)state;
	harness_ram_free();
	return 0;
}

/* ---- the log: everything printk'd since harness_log_clear() ---------- */

extern char harness_log[16384];

void harness_log_clear(void);

/* ---- BUGs ----------------------------------------------------------- */

/* The message of the last panic(), and what expect_bug() jumps back to. */
extern char bug_msg[512];
extern jmp_buf bug_jmp;
extern bool bug_expected;

/* Runs stmt, which must BUG; the message is left in bug_msg. */
#define expect_bug(stmt) do {						\
	bug_msg[0] = '\0';						\
	bug_expected = true;						\
	if (!setjmp(bug_jmp)) {						\
		stmt;							\
		bug_expected = false;					\
		fail_msg("no BUG from %s", #stmt);			\
	}								\
} while (0)

/* Fails the test unless the last BUG's message contains what. */
void assert_bug_says(const char *what);

#endif /* TESTS_HOST_HARNESS_H */
