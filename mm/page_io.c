/* mm/page_io.c — pages to or from their swap slots (Linux's
 * mm/page_io.c): slot n of an area is at sector n * 8 of its disk; a
 * batch's writes to consecutive slots go in one request (Linux's block
 * layer merges them so). Sleeps until the disk is done. */
#include <zpk/blkdev.h>
#include <zpk/errno.h>
#include <zpk/mm.h>
#include <zpk/printk.h>
#include <zpk/ratelimit.h>
#include <zpk/sched.h>
#include <zpk/swap.h>
#include <zpk/vmstat.h>

static DEFINE_RATELIMIT_STATE(swap_error_rs, DEFAULT_RATELIMIT_INTERVAL,
			      DEFAULT_RATELIMIT_BURST);

/* pages[0..n) to or from the n slots from entry on, in one request: 0 or
 * -EIO. */
static int swap_rw(struct page **pages, unsigned int n, swp_entry_t entry,
		   enum req_op op)
{
	struct gendisk *disk = swap_entry_disk(entry);
	struct bio bio = {
		.bi_disk = disk, .bi_opf = op, .bi_vcnt = n,
		.bi_sector = (sector_t)swp_offset(entry) <<
			     (PAGE_SHIFT - SECTOR_SHIFT),
	};

	might_sleep();
	if (!disk)
		return -EIO;
	for (unsigned int i = 0; i < n; i++)
		bio.bi_io_vec[i] = (struct bio_vec){ .bv_page = pages[i],
						     .bv_len = PAGE_SIZE };
	if (!submit_bio_wait(&bio))
		return 0;
	/* Linux's end_swap_bio_read/write line: a failing disk may make
	 * one per fault, hence the limit (pr_alert_ratelimited's). */
	if (__ratelimit(&swap_error_rs))
		printk(KERN_ALERT "%s-error on swap-device (%u:%u:%llu)\n",
		       op == REQ_OP_READ ? "Read" : "Write", disk->major,
		       disk->first_minor, (unsigned long long)bio.bi_sector);
	return -EIO;
}

/* How many of pages[0..n), from the first, have consecutive slots of one
 * area (the swap cache's entries), up to a request's BIO_MAX_VECS. */
static unsigned int slot_run(struct page **pages, unsigned int n)
{
	swp_entry_t first = { pages[0]->index };
	unsigned int k = 1;

	for (; k < n && k < BIO_MAX_VECS; k++) {
		swp_entry_t e = { pages[k]->index };

		if (swp_type(e) != swp_type(first) ||
		    swp_offset(e) != swp_offset(first) + k)
			break;
	}
	return k;
}

/* zpk/swap.h. The caller holds a slot reference for each (the swap
 * cache's), so the areas cannot go meanwhile. */
void swap_writepages(struct page **pages, unsigned int n, bool *ok)
{
	unsigned int k;

	count_vm_events(PSWPOUT, n);
	for (unsigned int i = 0; i < n; i += k) {
		swp_entry_t entry = { pages[i]->index };
		bool done;

		k = slot_run(pages + i, n - i);
		done = !swap_rw(pages + i, k, entry, REQ_OP_WRITE);
		for (unsigned int j = 0; j < k; j++)
			ok[i + j] = done;
	}
}

int swap_readpage(struct page *page, swp_entry_t entry)
{
	count_vm_event(PSWPIN);
	return swap_rw(&page, 1, entry, REQ_OP_READ);
}
