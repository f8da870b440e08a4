/* host-test-sources: mm/swap_map.c mm/page_alloc.c mm/vmstat.c lib/vsnprintf.c lib/string.c tests/host/harness.c */
/* tests/host/test_swap_map.c — swap areas without a disk: mkswap's
 * header checks, the slots' counts with the header and bad pages out of
 * use, get_swap_page by priority until swap is full, swap_duplicate and
 * swap_free, the totals, and swapoff refused while a slot is in use. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <zpk/errno.h>
#include <zpk/swap.h>

#include "harness.h"

static union swap_header hdr;

/* A version-1 header of pages pages (last_page = pages - 1). */
static union swap_header *header(unsigned int pages)
{
	memset(&hdr, 0, sizeof(hdr));
	memcpy(hdr.magic.magic, SWAP_MAGIC, 10);
	hdr.info.version = 1;
	hdr.info.last_page = pages - 1;
	return &hdr;
}

static void test_header(void **state)
{
	(void)state;
	assert_int_equal(read_swap_header(header(16), 16), 16);
	assert_int_equal(read_swap_header(header(16), 0), 16);
	harness_log_clear();
	assert_int_equal(read_swap_header(header(17), 16), 0);
	assert_non_null(strstr(harness_log, "shorter than signature"));
	header(16)->magic.magic[9] = '1';
	assert_int_equal(read_swap_header(&hdr, 16), 0);
	assert_non_null(strstr(harness_log, "swap-space signature"));
	header(16)->info.version = 2;
	assert_int_equal(read_swap_header(&hdr, 16), 0);
	header(1);
	assert_int_equal(read_swap_header(&hdr, 16), 0);	/* empty */
	header(16)->info.nr_badpages = MAX_SWAP_BADPAGES + 1;
	assert_int_equal(read_swap_header(&hdr, 16), 0);
}

static void test_bad_pages(void **state)
{
	unsigned char map[16];

	(void)state;
	assert_int_equal(setup_swap_map(map, 16, header(16)), 15);
	assert_int_equal(map[0], SWAP_MAP_BAD);
	header(16)->info.nr_badpages = 2;
	hdr.info.badpages[0] = 3;
	memcpy((char *)hdr.info.badpages + 4, &(u32){ 9 }, 4);
	assert_int_equal(setup_swap_map(map, 16, &hdr), 13);
	assert_int_equal(map[3], SWAP_MAP_BAD);
	assert_int_equal(map[9], SWAP_MAP_BAD);
	hdr.info.badpages[0] = 0;		/* the header: refused */
	assert_int_equal(setup_swap_map(map, 16, &hdr), -EINVAL);
	hdr.info.badpages[0] = 16;		/* past last_page */
	assert_int_equal(setup_swap_map(map, 16, &hdr), -EINVAL);
	header(2)->info.nr_badpages = 1;
	hdr.info.badpages[0] = 1;		/* nothing left */
	assert_int_equal(setup_swap_map(map, 2, &hdr), -EINVAL);
}

/* An area of pages slots at prio (-1: the default) in use. */
static struct swap_info_struct *add_area(unsigned int pages, int prio,
					 unsigned char *map)
{
	struct swap_info_struct *si;
	int usable = setup_swap_map(map, pages, header(pages));

	assert_int_equal(alloc_swap_info(&si), 0);
	enable_swap_info(si, prio, map, pages, usable);
	return si;
}

static void remove_area(struct swap_info_struct *si)
{
	assert_int_equal(disable_swap_info(si), 0);
	free_swap_info(si);
}

static void test_slots(void **state)
{
	unsigned char map[8];
	struct swap_info_struct *si = add_area(8, -1, map);
	unsigned long total, free;
	swp_entry_t e[8];

	(void)state;
	assert_int_equal(si->prio, -2);		/* Linux's first default */
	si_swapinfo(&total, &free);
	assert_int_equal(total, 7);
	for (int i = 0; i < 7; i++) {
		e[i] = get_swap_page();
		assert_int_equal(swp_type(e[i]), si->type);
		assert_true(swp_offset(e[i]) >= 1 && swp_offset(e[i]) < 8);
		assert_int_equal(swp_swapcount(e[i]), 1);
	}
	assert_int_equal(get_swap_page().val, 0);	/* full */
	si_swapinfo(&total, &free);
	assert_int_equal(free, 0);
	assert_int_equal(disable_swap_info(si), -ENOMEM);	/* in use */
	assert_int_equal(swap_duplicate(e[2]), 0);
	assert_int_equal(swp_swapcount(e[2]), 2);
	swap_free(e[2]);
	assert_int_equal(swp_swapcount(e[2]), 1);
	for (int i = 0; i < 7; i++)
		swap_free(e[i]);
	assert_int_equal(swp_swapcount(e[2]), 0);
	assert_int_equal(swap_duplicate(e[2]), -EINVAL);	/* free */
	assert_int_equal(swap_duplicate(swp_entry(si->type, 0)), -EINVAL);
	si_swapinfo(&total, &free);
	assert_int_equal(free, 7);
	remove_area(si);
	si_swapinfo(&total, &free);
	assert_int_equal(total, 0);
}

static void test_priorities(void **state)
{
	unsigned char low_map[4], high_map[4];
	struct swap_info_struct *low = add_area(4, -1, low_map);
	struct swap_info_struct *high = add_area(4, 5, high_map);
	swp_entry_t e[6];

	(void)state;
	for (int i = 0; i < 6; i++)
		e[i] = get_swap_page();
	for (int i = 0; i < 3; i++)	/* the higher priority first */
		assert_int_equal(swp_type(e[i]), high->type);
	for (int i = 3; i < 6; i++)
		assert_int_equal(swp_type(e[i]), low->type);
	assert_int_equal(get_swap_page().val, 0);
	for (int i = 0; i < 6; i++)
		swap_free(e[i]);
	remove_area(high);
	remove_area(low);
}

static void test_count_limit(void **state)
{
	unsigned char map[2];
	struct swap_info_struct *si = add_area(2, -1, map);
	swp_entry_t e = get_swap_page();

	(void)state;
	for (int i = 1; i < SWAP_MAP_MAX; i++)
		assert_int_equal(swap_duplicate(e), 0);
	assert_int_equal(swap_duplicate(e), -ENOMEM);
	for (int i = 0; i < SWAP_MAP_MAX; i++)
		swap_free(e);
	assert_int_equal(swp_swapcount(e), 0);
	harness_log_clear();
	swap_free(e);				/* one too many: reported */
	assert_non_null(strstr(harness_log, "bad swap entry"));
	remove_area(si);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_bad_pages),
		cmocka_unit_test(test_slots),
		cmocka_unit_test(test_priorities),
		cmocka_unit_test(test_count_limit),
	};

	return cmocka_run_group_tests_name("swap_map", tests, NULL, NULL);
}
